/**
 * The message catalogue (docs/forms.md §1): the fixed messages the rules use (each rule's module
 * in islands/lib/rules/ says which is its default, or writes its template with the bounds).
 * Shared by server and browser: no imports, no Node APIs. The strings are exact — the typo
 * "adress" and the English texts are the spec.
 */

/** Fixed messages. */
export const MESSAGES = {
  required: 'Dit veld is verplicht',
  invalid: 'Invoer is niet geldig',
  email: 'Dit is geen geldig email adress',
  url: 'Dit is geen geldige URL',
  uuid: 'Dit is geen geldige UUID',
  trim: 'Dit is geen geldige waarde',
  pattern: 'must match the given pattern',
  lowercase: 'the value must be lowercase',
  uppercase: 'the value must be upper case',
  sessionExpired: 'Je sessie is verlopen. Verstuur het formulier opnieuw.',
} as const;

/**
 * The language of a catalogue message: the seed gives some in English, and
 * those are marked `lang="en"` inside the Dutch page (docs/forms.md §1).
 * @param message a rule's message (islands/lib/rules/)
 * @returns `en` for the English templates, else `nl`
 */
export function messageLanguage(message: string): 'nl' | 'en' {
  return /^(must (contain|be exactly|match)|at (least|most) \d|the value must be )/.test(message) ? 'en' : 'nl';
}

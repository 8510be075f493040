/**
 * The message catalogue (docs/forms.md §1): the default message of
 * every validation rule, by class-validator rule name and its bounds. Shared by
 * server and browser: no imports, no Node APIs. The strings are exact — the typo
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
 * The default message of a rule.
 * @param rule class-validator rule name, e.g. `minLength`, `isEmail`, `isTrimmed`
 * @param constraints the rule's bounds, e.g. `[2]` for MinLength(2), `[2, 2]` for Length(2, 2)
 * @returns the catalogue's message with N filled in; "Invoer is niet geldig" for
 *   any rule without a message of its own (IsInt, IsIn, Min, Max, …)
 */
export function defaultMessage(rule: string, constraints: readonly unknown[] = []): string {
  const [n, m] = constraints;
  switch (rule) {
    case 'isNotEmpty':
    case 'isDefined':
      return MESSAGES.required;
    case 'isEmail':
      return MESSAGES.email;
    case 'isUrl':
      return MESSAGES.url;
    case 'isUuid':
      return MESSAGES.uuid;
    case 'isTrimmed':
      return MESSAGES.trim;
    case 'arrayMinSize':
      return `must contain at least ${String(n)} value(s)`;
    case 'arrayMaxSize':
      return `must contain at most ${String(n)} value(s)`;
    case 'isLength':
      return n === m ? `must be exactly ${String(n)} characters` : MESSAGES.invalid;
    case 'minLength':
      return `at least ${String(n)} characters`;
    case 'maxLength':
      return `at most ${String(n)} characters`;
    case 'matches':
      return MESSAGES.pattern;
    case 'isLowercase':
      return MESSAGES.lowercase;
    case 'isUppercase':
      return MESSAGES.uppercase;
    default:
      return MESSAGES.invalid;
  }
}

/**
 * The language of a catalogue message: the seed gives some in English, and
 * those are marked `lang="en"` inside the Dutch page (docs/forms.md §1).
 * @param message a message from {@link defaultMessage}
 * @returns `en` for the English templates, else `nl`
 */
export function messageLanguage(message: string): 'nl' | 'en' {
  return /^(must (contain|be exactly|match)|at (least|most) \d|the value must be )/.test(message) ? 'en' : 'nl';
}

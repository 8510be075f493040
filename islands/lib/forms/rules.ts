/**
 * Each form island's rule list in the browser (docs/forms.md §5). The build derives the list from
 * the form's DTO and registers it from the island's entry module before the island hydrates
 * (build/form-islands.mjs), so each island's chunk carries its own list and no other. Browser
 * code only: on the server no list is registered, and the server never validates in an island.
 */
import type { FormRules } from '../../../protocol/rules.js';

const LISTS = new Map<string, FormRules>();

/**
 * Registers an island's rule list (called by the entry module the build generates).
 * @param island the island's name, e.g. `ContactForm`
 * @param rules the list derived from its form's DTO
 */
export function registerFormRules(island: string, rules: FormRules): void {
  LISTS.set(island, rules);
}

/**
 * The rule list of a form island.
 * @param island the island's name
 * @throws Error when the build registered none: the island's form is missing from
 *   `src/forms/index.ts` (the island then shows the Application error instead of validating
 *   nothing)
 */
export function formRulesOf(island: string): FormRules {
  const rules = LISTS.get(island);
  if (!rules) throw new Error(`Form island "${island}" has no rule list: add its form to src/forms/index.ts`);
  return rules;
}

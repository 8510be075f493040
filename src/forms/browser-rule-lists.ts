/**
 * The browser rule list of every form (docs/forms.md §5, §8), by island: evaluated by the build
 * (build/rules.mjs), never at run time, so no page carries a rule list in its props (in props it
 * would be most of a form page's HTML).
 */
import type { FormRules } from '../../protocol/rules.js';
import { browserRules } from './browser-rules.js';
import type { FormDefinition } from './define.js';

/**
 * Island name → the rule list its form's DTO gives.
 * @param forms the forms (src/forms/index.ts `FORMS`, or the tests' test/fixtures/forms.ts)
 * @throws TypeError when a DTO has a rule the browser cannot evaluate (see `browserRules`)
 */
export function ruleLists(forms: readonly FormDefinition[]): Record<string, FormRules> {
  return Object.fromEntries(forms.map((form) => [form.island, browserRules(form.dto)]));
}

/**
 * The browser rule list of every form (docs/forms.md §5, §8), by island: evaluated by the build
 * (build/rules.mjs), never at run time, so no page carries a rule list in its props (in props it
 * would be most of a form page's HTML).
 */
import type { FormRules } from '../../protocol/rules.js';
import { browserRules } from './browser-rules.js';
import { FORMS } from './index.js';

/** Island name → the rule list its form's DTO gives. */
export const BROWSER_RULE_LISTS: Readonly<Record<string, FormRules>> = Object.fromEntries(FORMS.map((form) => [form.island, browserRules(form.dto)]));

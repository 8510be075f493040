/**
 * The rule list (rules.json, derived from Eiland's DTO by write-rules.mjs) where the island
 * reads it, with the checks of its rules (registration-checks.mjs, written beside it). Eiland's build registers the list from the island's entry module
 * (build/form-islands.mjs); importing this module before the island does the same for the Next
 * page's chunk.
 */
import { registerFormRules } from '../../../islands/lib/forms/rules.js';
import rules from '../rules.json';
import './registration-checks.mjs';

registerFormRules('RegistrationForm', rules);

export default rules;

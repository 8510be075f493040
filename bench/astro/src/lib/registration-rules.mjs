/**
 * The rule list (rules.json, derived from Eiland's DTO by ../next/write-rules.mjs, shared with the
 * Next app) where the island reads it, with the checks of its rules. Imported before the island, in the browser and on the
 * server, as Eiland's generated entry module registers it.
 */
import { registerFormRules } from '../../../../islands/lib/forms/rules.js';
import rules from '../../../next/rules.json';
import '../../../next/lib/registration-checks.mjs';

registerFormRules('RegistrationForm', rules);

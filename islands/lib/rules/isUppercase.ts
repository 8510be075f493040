/**
 * The rule `isUppercase` (docs/forms.md §1, §5): class-validator's `IsUppercase` (validator.js `isUppercase`: the string as its upper case).
 */
import { MESSAGES } from '../../../protocol/messages.js';
import type { RuleDefinition } from './rule.js';

export const name = 'isUppercase';

export const check: RuleDefinition['check'] = (v) => typeof v === 'string' && v === v.toUpperCase();

export const message: RuleDefinition['message'] = () => MESSAGES.uppercase;

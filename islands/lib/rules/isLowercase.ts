/**
 * The rule `isLowercase` (docs/forms.md §1, §5): class-validator's `IsLowercase` (validator.js `isLowercase`: the string as its lower case).
 */
import { MESSAGES } from '../../../protocol/messages.js';
import type { RuleDefinition } from './rule.js';

export const name = 'isLowercase';

export const check: RuleDefinition['check'] = (v) => typeof v === 'string' && v === v.toLowerCase();

export const message: RuleDefinition['message'] = () => MESSAGES.lowercase;

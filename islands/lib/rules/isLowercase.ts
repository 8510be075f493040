/**
 * The rule `isLowercase` (docs/forms.md §1, §5): class-validator's `IsLowercase` (validator.js `isLowercase`: the string as its lower case).
 */
import { MESSAGES } from '../../../protocol/messages.js';
import type { Rule } from './rule.js';

export const name = 'isLowercase';

export const check: Rule['check'] = (v) => typeof v === 'string' && v === v.toLowerCase();

export const message: Rule['message'] = () => MESSAGES.lowercase;

/**
 * The rule `isLowercase` (docs/forms.md §1, §5): class-validator's `IsLowercase` (validator.js `isLowercase`).
 */
import isLowercase from 'validator/es/lib/isLowercase.js';
import { MESSAGES } from '../../../protocol/messages.js';
import type { Rule } from './rule.js';

export const name = 'isLowercase';

export const check: Rule['check'] = (v) => typeof v === 'string' && isLowercase(v);

export const message: Rule['message'] = () => MESSAGES.lowercase;

/**
 * The rule `isUppercase` (docs/forms.md §1, §5): class-validator's `IsUppercase` (validator.js `isUppercase`).
 */
import isUppercase from 'validator/es/lib/isUppercase.js';
import { MESSAGES } from '../../../protocol/messages.js';
import type { Rule } from './rule.js';

export const name = 'isUppercase';

export const check: Rule['check'] = (v) => typeof v === 'string' && isUppercase(v);

export const message: Rule['message'] = () => MESSAGES.uppercase;

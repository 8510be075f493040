/**
 * The rule `isNotEmpty` (docs/forms.md §1, §5): class-validator's `IsNotEmpty`: not '', null or undefined.
 */
import { MESSAGES } from '../../../protocol/messages.js';
import type { Rule } from './rule.js';

export const name = 'isNotEmpty';

export const check: Rule['check'] = (v) => v !== '' && v !== null && v !== undefined;

export const message: Rule['message'] = () => MESSAGES.required;

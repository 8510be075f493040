/**
 * The rule `isIn` (docs/forms.md §1, §5): class-validator's `IsIn(values)`.
 */
import { MESSAGES } from '../../../protocol/messages.js';
import type { Rule } from './rule.js';

export const name = 'isIn';

export const check: Rule['check'] = (v, c) => Array.isArray(c[0]) && c[0].some((p) => p === v);

export const message: Rule['message'] = () => MESSAGES.invalid;

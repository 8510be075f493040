/**
 * The rule `max` (docs/forms.md §1, §5): class-validator's `Max(n)`.
 */
import { MESSAGES } from '../../../protocol/messages.js';
import type { Rule } from './rule.js';

export const name = 'max';

export const check: Rule['check'] = (v, c) => typeof v === 'number' && typeof c[0] === 'number' && v <= c[0];

export const message: Rule['message'] = () => MESSAGES.invalid;

/**
 * The rule `maxLength` (docs/forms.md §1, §5): class-validator's `MaxLength(n)` (validator.js `isLength`).
 */
import isLength from 'validator/es/lib/isLength.js';
import type { Rule } from './rule.js';

export const name = 'maxLength';

export const check: Rule['check'] = (v, c) => typeof v === 'string' && isLength(v, { min: 0, max: c[0] as number });

export const message: Rule['message'] = ([n]) => `at most ${String(n)} characters`;

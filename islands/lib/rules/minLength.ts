/**
 * The rule `minLength` (docs/forms.md §1, §5): class-validator's `MinLength(n)` (validator.js `isLength`: characters, not UTF-16 units).
 */
import isLength from 'validator/es/lib/isLength.js';
import type { Rule } from './rule.js';

export const name = 'minLength';

export const check: Rule['check'] = (v, c) => typeof v === 'string' && isLength(v, { min: c[0] as number });

export const message: Rule['message'] = ([n]) => `at least ${String(n)} characters`;

/**
 * The rule `isLength` (docs/forms.md §1, §5): class-validator's `Length(min, max)` (validator.js `isLength`).
 */
import isLength from 'validator/es/lib/isLength.js';
import { MESSAGES } from '../../../protocol/messages.js';
import type { Rule } from './rule.js';

export const name = 'isLength';

export const check: Rule['check'] = (v, c) => typeof v === 'string' && isLength(v, { min: c[0] as number, max: (c[1] ?? undefined) as number | undefined });

export const message: Rule['message'] = ([n, m]) => (n === m ? `must be exactly ${String(n)} characters` : MESSAGES.invalid);

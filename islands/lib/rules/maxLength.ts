/**
 * The rule `maxLength` (docs/forms.md §1, §5): class-validator's `MaxLength(n)` (validator.js `isLength`; islands/lib/validator.ts).
 */
import { characters } from '../validator.js';
import type { RuleDefinition } from './rule.js';

export const name = 'maxLength';

export const check: RuleDefinition['check'] = (v, c) => typeof v === 'string' && (c[0] === undefined || characters(v) <= (c[0] as number));

export const message: RuleDefinition['message'] = ([n]) => `at most ${String(n)} characters`;

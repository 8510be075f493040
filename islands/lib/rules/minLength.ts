/**
 * The rule `minLength` (docs/forms.md §1, §5): class-validator's `MinLength(n)` (validator.js `isLength`: characters, not UTF-16 units; islands/lib/validator.ts).
 */
import { characters } from '../validator.js';
import type { RuleDefinition } from './rule.js';

export const name = 'minLength';

export const check: RuleDefinition['check'] = (v, c) => typeof v === 'string' && characters(v) >= ((c[0] as number) || 0);

export const message: RuleDefinition['message'] = ([n]) => `at least ${String(n)} characters`;

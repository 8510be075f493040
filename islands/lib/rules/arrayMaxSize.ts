/**
 * The rule `arrayMaxSize` (docs/forms.md §1, §5): class-validator's `ArrayMaxSize(n)`.
 */
import type { RuleDefinition } from './rule.js';

export const name = 'arrayMaxSize';

export const check: RuleDefinition['check'] = (v, c) => Array.isArray(v) && v.length <= (c[0] as number);

export const message: RuleDefinition['message'] = ([n]) => `must contain at most ${String(n)} value(s)`;

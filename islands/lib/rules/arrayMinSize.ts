/**
 * The rule `arrayMinSize` (docs/forms.md §1, §5): class-validator's `ArrayMinSize(n)`.
 */
import type { RuleDefinition } from './rule.js';

export const name = 'arrayMinSize';

export const check: RuleDefinition['check'] = (v, c) => Array.isArray(v) && v.length >= (c[0] as number);

export const message: RuleDefinition['message'] = ([n]) => `must contain at least ${String(n)} value(s)`;

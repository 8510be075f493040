/**
 * The rule `isIn` (docs/forms.md §1, §5): class-validator's `IsIn(values)`.
 */
import { MESSAGES } from '../../../protocol/messages.js';
import type { RuleDefinition } from './rule.js';

export const name = 'isIn';

export const check: RuleDefinition['check'] = (v, c) => Array.isArray(c[0]) && c[0].some((p) => p === v);

export const message: RuleDefinition['message'] = () => MESSAGES.invalid;

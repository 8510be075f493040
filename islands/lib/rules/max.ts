/**
 * The rule `max` (docs/forms.md §1, §5): class-validator's `Max(n)`.
 */
import { MESSAGES } from '../../../protocol/messages.js';
import type { RuleDefinition } from './rule.js';

export const name = 'max';

export const check: RuleDefinition['check'] = (v, c) => typeof v === 'number' && typeof c[0] === 'number' && v <= c[0];

export const message: RuleDefinition['message'] = () => MESSAGES.invalid;

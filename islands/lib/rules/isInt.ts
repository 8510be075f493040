/**
 * The rule `isInt` (docs/forms.md §1, §5): class-validator's `IsInt`.
 */
import { MESSAGES } from '../../../protocol/messages.js';
import type { RuleDefinition } from './rule.js';

export const name = 'isInt';

export const check: RuleDefinition['check'] = (v) => typeof v === 'number' && Number.isInteger(v);

export const message: RuleDefinition['message'] = () => MESSAGES.invalid;

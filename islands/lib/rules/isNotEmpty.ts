/**
 * The rule `isNotEmpty` (docs/forms.md §1, §5): class-validator's `IsNotEmpty`: not '', null or undefined.
 */
import { MESSAGES } from '../../../protocol/messages.js';
import type { RuleDefinition } from './rule.js';

export const name = 'isNotEmpty';

export const check: RuleDefinition['check'] = (v) => v !== '' && v !== null && v !== undefined;

export const message: RuleDefinition['message'] = () => MESSAGES.required;

/**
 * The rule `isDefined` (docs/forms.md §1, §5): class-validator's `IsDefined`: not null or undefined.
 */
import { MESSAGES } from '../../../protocol/messages.js';
import type { RuleDefinition } from './rule.js';

export const name = 'isDefined';

export const check: RuleDefinition['check'] = (v) => v !== undefined && v !== null;

export const message: RuleDefinition['message'] = () => MESSAGES.required;

/**
 * The rule `isDefined` (docs/forms.md §1, §5): class-validator's `IsDefined`: not null or undefined.
 */
import { MESSAGES } from '../../../protocol/messages.js';
import type { Rule } from './rule.js';

export const name = 'isDefined';

export const check: Rule['check'] = (v) => v !== undefined && v !== null;

export const message: Rule['message'] = () => MESSAGES.required;

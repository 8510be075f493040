/**
 * The custom rule `isTrimmed` (docs/forms.md §1 "trim"): a string without leading or trailing
 * white space. Its server decorator is `IsTrimmed()` (src/forms/custom-rules.ts).
 */
import { MESSAGES } from '../../../protocol/messages.js';
import type { RuleDefinition } from './rule.js';

export const name = 'isTrimmed';

export const check: RuleDefinition['check'] = (v) => typeof v === 'string' && v === v.trim();

export const message: RuleDefinition['message'] = () => MESSAGES.trim;

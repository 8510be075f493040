/**
 * The rule `isUrl` (docs/forms.md §1, §5): class-validator's `IsUrl` (validator.js `isURL` with the DTO's options).
 */
import isURL from 'validator/es/lib/isURL.js';
import { MESSAGES } from '../../../protocol/messages.js';
import type { RuleDefinition } from './rule.js';

export const name = 'isUrl';

export const check: RuleDefinition['check'] = (v, c) => typeof v === 'string' && isURL(v, (c[0] ?? undefined) as Parameters<typeof isURL>[1]);

export const message: RuleDefinition['message'] = () => MESSAGES.url;

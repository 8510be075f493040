/**
 * The rule `isEmail` (docs/forms.md §1, §5): class-validator's `IsEmail` (validator.js `isEmail` with the DTO's options).
 */
import isEmail from 'validator/es/lib/isEmail.js';
import { MESSAGES } from '../../../protocol/messages.js';
import type { RuleDefinition } from './rule.js';

export const name = 'isEmail';

export const check: RuleDefinition['check'] = (v, c) => typeof v === 'string' && isEmail(v, (c[0] ?? undefined) as Parameters<typeof isEmail>[1]);

export const message: RuleDefinition['message'] = () => MESSAGES.email;

/**
 * The rule `isUuid` (docs/forms.md §1, §5): class-validator's `IsUUID` (validator.js `isUUID` with the DTO's version).
 */
import isUUID from 'validator/es/lib/isUUID.js';
import { MESSAGES } from '../../../protocol/messages.js';
import type { Rule } from './rule.js';

export const name = 'isUuid';

export const check: Rule['check'] = (v, c) => typeof v === 'string' && isUUID(v, (c[0] ?? undefined) as Parameters<typeof isUUID>[1]);

export const message: Rule['message'] = () => MESSAGES.uuid;

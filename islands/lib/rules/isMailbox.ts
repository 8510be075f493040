/**
 * The custom rule `isMailbox` (docs/forms.md §1): an address that names one mailbox, as it goes
 * into an e-mail's envelope unchanged. It is validator.js's `isEmail` (class-validator's
 * `IsEmail`) without what that allows but no mail server takes from a form: a quoted local part,
 * CR, LF, `<`, `>`, commas and spaces (a quoted `"a\r\nBcc: …"@…` would reach Nodemailer as
 * another address). Its server decorator is `IsMailbox()` (src/forms/custom-rules.ts).
 */
import isEmail from 'validator/es/lib/isEmail.js';
import { MESSAGES } from '../../../protocol/messages.js';
import type { Rule } from './rule.js';

export const name = 'isMailbox';

/** validator.js refuses these characters in the local part; the domain's own rule refuses them there. */
const NOT_IN_A_MAILBOX = { blacklisted_chars: '"<>, \r\n' };

export const check: Rule['check'] = (v) => typeof v === 'string' && isEmail(v, NOT_IN_A_MAILBOX);

export const message: Rule['message'] = () => MESSAGES.email;

/**
 * The custom rule `isMailbox` (docs/forms.md §1): an address that names one mailbox, as it goes
 * into an e-mail's envelope unchanged. It is validator.js's `isEmail` (class-validator's
 * `IsEmail`) without what that allows but no mail server takes from a form: a quoted local part,
 * CR, LF, `<`, `>`, commas and spaces (a quoted `"a\r\nBcc: …"@…` would reach Nodemailer as
 * another address). Its server decorator is `IsMailbox()` (src/forms/custom-rules.ts).
 *
 * Written out rather than calling `isEmail(v, { blacklisted_chars: '"<>, \r\n' })`: with those
 * options most of `isEmail` (display names, quoted local parts, IP domains, host lists, Gmail's
 * rules) can never run, yet every form page downloaded it (docs/performance.md §1).
 * Step for step what `isEmail` does with them (its domain check is islands/lib/validator.ts's port
 * of `isFQDN`); test/validator-ports.test.ts holds the two equal.
 */
import { MESSAGES } from '../../../protocol/messages.js';
import { isFQDN } from '../validator.js';
import type { RuleDefinition } from './rule.js';

export const name = 'isMailbox';

/** validator.js's local part, UTF-8 allowed (`emailUserUtf8Part`), for each dot-separated part. */
const LOCAL_PART = /^[a-z\d!#$%&'*+\-/=?^_`{|}~\u00A1-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]+$/i;

/** Bytes in UTF-8, counted as validator.js's `isByteLength` counts them (a lone surrogate throws, as there). */
const bytes = (text: string) => encodeURI(text).split(/%..|./).length - 1;

export const check: RuleDefinition['check'] = (v) => {
  if (typeof v !== 'string' || v.length > 254) return false;
  const at = v.lastIndexOf('@');
  const local = v.slice(0, Math.max(at, 0));
  const domain = v.slice(at + 1);
  // The characters a mailbox refuses rule out the quoted local part `isEmail` would allow.
  if (bytes(local) > 64 || bytes(domain) > 254 || !isFQDN(domain) || /["<>, \r\n]/.test(local)) return false;
  return local.split('.').every((part) => LOCAL_PART.test(part));
};

export const message: RuleDefinition['message'] = () => MESSAGES.email;

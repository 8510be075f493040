/**
 * The recipient limit (docs/operations.md §12): no address gets more than 3 e-mails in 24 hours,
 * whatever the forms, the client addresses and the instances that ask for them. The outbox keeps a
 * digest of each message's address, not the address (its row is erased with the person's data).
 */
import { createHash } from 'node:crypto';
import { domainToASCII } from 'node:url';

/** E-mails one recipient gets at most within {@link RECIPIENT_WINDOW_MS}. */
export const MAILS_PER_RECIPIENT = 3;

/** The window of the recipient limit: 24 hours, in ms. */
export const RECIPIENT_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * The outbox's key of an address: its SHA-256 (base64url) once compared case-insensitively, the
 * domain in its ASCII form, so `Anna@Münster.de` and `anna@xn--mnster-3ya.de` are one recipient.
 * @param address a mailbox address as stored (docs/forms.md §1, `IsMailbox`)
 */
export function recipientOf(address: string): string {
  const at = address.lastIndexOf('@');
  const domain = address.slice(at + 1);
  const normal = `${address.slice(0, at)}@${domainToASCII(domain) || domain}`.toLowerCase();
  return createHash('sha256').update(normal).digest('base64url');
}

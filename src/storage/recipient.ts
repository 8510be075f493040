/**
 * The recipient limit (docs/operations.md §12): no inbox gets more than 3 e-mails in 24 hours,
 * whatever the forms, the client addresses, the instances and the erasures between them. Each
 * e-mail sent is recorded as a keyed digest of its inbox (`recipient_sends`), kept 24 hours and
 * never erased with the row it was about, so register → erase → register counts on.
 */
import { createHmac } from 'node:crypto';
import { domainToASCII } from 'node:url';

/** E-mails one recipient gets at most within {@link RECIPIENT_WINDOW_MS}. */
export const MAILS_PER_RECIPIENT = 3;

/** The window of the recipient limit: 24 hours, in ms. */
export const RECIPIENT_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Providers whose inboxes ignore dots in the local part, and the domain each is one of. */
const DOTLESS: Readonly<Record<string, string>> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * The inbox an address reaches: case folded, the domain in its ASCII form, the subaddress (`+tag`)
 * dropped, and the dots of a provider that ignores them (Gmail) removed, so `Anna+x@Münster.de`
 * and `anna@xn--mnster-3ya.de` are one inbox, and `a.nna@googlemail.com` is `anna@gmail.com`.
 * @param address a mailbox address as stored (docs/forms.md §1, `IsMailbox`)
 */
export function inboxOf(address: string): string {
  const at = address.lastIndexOf('@');
  const domain = (domainToASCII(address.slice(at + 1)) || address.slice(at + 1)).toLowerCase();
  let local = address.slice(0, at).toLowerCase();
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  const provider = DOTLESS[domain];
  return provider ? `${local.replaceAll('.', '')}@${provider}` : `${local}@${domain}`;
}

/**
 * The digest the limit keeps of an address: an HMAC-SHA256 of its inbox under the database's own
 * key (base64url), so the table holds no address and no digest a guessed address reproduces
 * without the key.
 * @param key the database's recipient key (a setting made once)
 */
export function recipientOf(address: string, key: string): string {
  return createHmac('sha256', key).update(inboxOf(address)).digest('base64url');
}

/**
 * An address is a mailbox (docs/forms.md §1, `IsMailbox`): every form with an e-mail field refuses
 * what names no single mailbox (a quoted local part, CR, LF, `<`, `>`, commas, spaces) with the
 * e-mail message, stores nothing for it, and sends a plain address's e-mail to exactly that address
 * (Nodemailer's envelope as a real SMTP server receives it). The browser's half is the parity suite
 * (test/e2e/parity.test.ts), whose edges hold the same addresses.
 */
import assert from 'node:assert/strict';
import { domainToASCII } from 'node:url';
import { describe, it } from 'node:test';
import { MESSAGES } from '../protocol/messages.js';
import { FORMS } from './fixtures/forms.js';
import { HOSTILE_ADDRESSES, PLAIN_ADDRESSES } from './fixtures/mailboxes.js';
import { fieldErrors, FORM_KITS, postForm } from './helpers/form.js';
import { serverWith } from './helpers/mail-server.js';
import { startSmtp } from './helpers/smtp.js';

/** The forms whose e-mail goes to the address the person gave. */
const MAILING = FORMS.filter((form) => form.fields.includes('email'));

/**
 * An address with its local part exactly as given and its domain in ASCII: Nodemailer writes a
 * domain in lower case, and in its ASCII form (`xn--…`) unless the local part needs SMTPUTF8 — the
 * same domain either way.
 */
function mailbox(address: string): string {
  const at = address.lastIndexOf('@');
  return `${address.slice(0, at)}@${domainToASCII(address.slice(at + 1))}`;
}

describe('an e-mail address is one mailbox (docs/forms.md §1)', () => {
  it('there are forms with an e-mail field to test', () => assert.ok(MAILING.length > 0));

  for (const form of MAILING) {
    it(`${form.path} refuses every hostile address with the e-mail message, and stores and sends nothing for it`, async (t) => {
      const smtp = await startSmtp();
      t.after(() => smtp.stop());
      const site = await serverWith(t, { SMTP_URL: smtp.url, FORM_RATE_LIMIT: '1000/1m' });
      const kit = FORM_KITS[form.name]!;
      for (const email of HOSTILE_ADDRESSES) {
        const res = await postForm(site.app, form.path, { ...kit.valid, email });
        assert.deepEqual({ status: res.status, errors: fieldErrors(res.body) }, { status: 422, errors: { email: MESSAGES.email } }, JSON.stringify(email));
      }
      // A plain post after them: the only e-mail the server sends is its own.
      await site.post(form.path, kit.valid);
      await smtp.waitForReceived(1);
      assert.deepEqual(smtp.recipients, [[kit.valid.email]]);
    });

    it(`${form.path} sends a plain address's e-mail to exactly that address`, async (t) => {
      const smtp = await startSmtp();
      t.after(() => smtp.stop());
      const site = await serverWith(t, { SMTP_URL: smtp.url, FORM_RATE_LIMIT: '1000/1m' });
      const kit = FORM_KITS[form.name]!;
      for (const email of PLAIN_ADDRESSES) await site.post(form.path, { ...kit.valid, email });
      await smtp.waitForReceived(PLAIN_ADDRESSES.length);
      assert.deepEqual(smtp.recipients.flat().map(mailbox).sort(), PLAIN_ADDRESSES.map(mailbox).sort());
      assert.deepEqual(smtp.received.flatMap((m) => (Array.isArray(m.to) ? [] : (m.to?.value ?? []).map((to) => mailbox(String(to.address))))).sort(), PLAIN_ADDRESSES.map(mailbox).sort(), 'the To header names the same mailbox');
    });
  }
});

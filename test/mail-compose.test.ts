/**
 * The outbox's e-mails as composed (docs/operations.md §12): Dutch, plain text and HTML from one
 * set of paragraphs, the link on the configured origin, the name escaped in HTML; and the privacy
 * page says which e-mails are sent.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { composeMail } from '../src/mail/compose.js';
import type { OutboxMessage } from '../src/storage/types.js';
import { useApp } from './helpers/app.js';

const ID = '5f4c6f50-7056-4e13-a306-80657fe6c4a3';
const message = (kind: OutboxMessage['kind'], naam = 'Anna de Vries'): OutboxMessage => ({ id: 'b1e7a0f2-0000-4000-8000-000000000001', kind, about: ID, naam, email: 'anna@voorbeeld.nl', attempts: 1, lease: 'b1e7a0f2-0000-4000-8000-000000000002' });

describe('the outbox e-mails (docs/operations.md §12)', () => {
  it("confirms a registration with the link to its page on the site's origin", () => {
    const mail = composeMail(message('registration'), 'https://eiland.example');
    assert.equal(mail.subject, 'Je aanmelding bij Eiland');
    assert.equal(
      mail.text,
      `Hallo Anna de Vries,\n\nBedankt voor je aanmelding bij Eiland. Op je bevestigingspagina zie je wat we van je hebben opgeslagen. Daar kun je je gegevens ook downloaden of je aanmelding verwijderen:\n\nhttps://eiland.example/aanmeldingen/${ID}\n\nBewaar deze e-mail: wie de link heeft, kan je aanmelding zien.\n\nGroet,\nEiland\n`,
    );
    assert.match(mail.html, new RegExp(`<p><a href="https://eiland\\.example/aanmeldingen/${ID}">https://eiland\\.example/aanmeldingen/${ID}</a></p>`));
    assert.match(mail.html, /<p>Groet,<br\/>Eiland<\/p>/);
  });

  it('acknowledges a contact message without repeating it', () => {
    const mail = composeMail(message('contact'), 'https://eiland.example');
    assert.equal(mail.subject, 'We hebben je bericht ontvangen');
    assert.equal(mail.text, 'Hallo Anna de Vries,\n\nBedankt voor je bericht aan Eiland. We hebben het ontvangen en antwoorden op dit e-mailadres.\n\nGroet,\nEiland\n');
  });

  it('escapes the name in HTML and keeps it as typed in the text', () => {
    const mail = composeMail(message('contact', 'Anna <b>& Bob</b>'), 'https://eiland.example');
    assert.match(mail.html, /<p>Hallo Anna &lt;b&gt;&amp; Bob&lt;\/b&gt;,<\/p>/);
    assert.match(mail.text, /^Hallo Anna <b>& Bob<\/b>,/);
  });
});

describe('the privacy page says which e-mails are sent (docs/pages.md §1)', () => {
  const app = useApp();
  it('one after a registration, a receipt after a message, nothing else, with only the name', async () => {
    const page = await app.request('/privacy');
    assert.match(page.body, /Na je aanmelding sturen we je één e-mail met de link naar je bevestigingspagina\. Na een bericht sturen we je een\s+korte ontvangstbevestiging\. Verder mailen we je niet, en in die e-mails staat van jou alleen je naam\./);
  });
});

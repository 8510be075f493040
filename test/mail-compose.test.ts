/**
 * The outbox's e-mails as composed (docs/operations.md §12): Dutch, plain text and HTML from one
 * set of paragraphs, the link on the configured origin, the name escaped in HTML; and the privacy
 * page says which e-mails are sent.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contactForm } from '../src/forms/contact.js';
import { registrationForm } from '../src/forms/registration.js';
import { composeMail, greeting } from '../src/mail/compose.js';
import { useApp } from './helpers/app.js';
import { REGISTRATION } from './helpers/temp-storage.js';

const ID = '5f4c6f50-7056-4e13-a306-80657fe6c4a3';
const CREATED = '2026-11-27T10:00:00.000Z';
/** The e-mail a form's template writes for a stored row of it. */
const mailOf = (kind: 'registration' | 'contact', naam = 'Anna de Vries') =>
  composeMail(
    kind === 'registration'
      ? registrationForm.keep.mail!({ ...REGISTRATION, id: ID, createdAt: CREATED, naam }, 'https://eiland.example')
      : contactForm.keep.mail!({ id: ID, createdAt: CREATED, naam, email: 'anna@voorbeeld.nl', onderwerp: 'vraag', bericht: 'Een vraag over de rondleiding.' }, 'https://eiland.example'),
  );

describe('the outbox e-mails (docs/operations.md §12)', () => {
  it("confirms a registration with the link to its page on the site's origin", () => {
    const mail = mailOf('registration');
    assert.equal(mail.subject, 'Je aanmelding bij Eiland');
    assert.equal(
      mail.text,
      `Hallo Anna,\n\nBedankt voor je aanmelding bij Eiland. Op je bevestigingspagina zie je wat we van je hebben opgeslagen. Daar kun je je gegevens ook downloaden of je aanmelding verwijderen:\n\nhttps://eiland.example/aanmeldingen/${ID}\n\nBewaar deze e-mail: wie de link heeft, kan je aanmelding zien.\n\nGroet,\nEiland\n`,
    );
    assert.match(mail.html, new RegExp(`<p><a href="https://eiland\\.example/aanmeldingen/${ID}">https://eiland\\.example/aanmeldingen/${ID}</a></p>`));
    assert.match(mail.html, /<p>Groet,<br\/>Eiland<\/p>/);
  });

  it('acknowledges a contact message without repeating it', () => {
    const mail = mailOf('contact');
    assert.equal(mail.subject, 'We hebben je bericht ontvangen');
    assert.equal(mail.text, 'Hallo Anna,\n\nBedankt voor je bericht aan Eiland. We hebben het ontvangen en antwoorden op dit e-mailadres.\n\nGroet,\nEiland\n');
  });

  // What a visitor typed as the name reaches someone else's inbox when the address is not theirs.
  const GREETINGS: ReadonlyArray<[naam: string, greeting: string]> = [
    ['Anna de Vries', 'Hallo Anna,'],
    ['  Zoë Ümit-Çelik ', 'Hallo Zoë,'],
    ["O'Brien", "Hallo O'Brien,"],
    ['Jean-Luc Picard', 'Hallo Jean-Luc,'],
    ['A'.repeat(20), `Hallo ${'A'.repeat(20)},`],
    ['A'.repeat(21), 'Hallo,'],
    ['Win! zie evil.example/prijs', 'Hallo,'],
    ['evil.example', 'Hallo,'],
    ['https://evil.example', 'Hallo,'],
    ['www.evil.example bel 0900', 'Hallo,'],
    ['Anna@evil.example', 'Hallo,'],
    ['<b>Anna</b>', 'Hallo,'],
    ['Anna, bezoek evil.example', 'Hallo,'],
    ['06-12345678', 'Hallo,'],
    ['😀 Anna', 'Hallo,'],
  ];
  for (const [naam, expected] of GREETINGS) {
    it(`greets ${JSON.stringify(naam)} with ${JSON.stringify(expected)}`, () => assert.equal(greeting(naam), expected));
  }

  it('carries nothing of the name but the greeting, in the text and in the HTML', () => {
    for (const kind of ['registration', 'contact'] as const) {
      const mail = mailOf(kind, 'Win! zie evil.example/prijs <b>nu</b>');
      for (const body of [mail.subject, mail.text, mail.html]) assert.doesNotMatch(body, /Win|evil|prijs|nu</);
      assert.match(mail.text, /^Hallo,\n/);
      assert.match(mail.html, /<p>Hallo,<\/p>/);
    }
  });
});

describe('the privacy page says which e-mails are sent (docs/pages.md §1)', () => {
  const app = useApp();
  it('one after a registration, a receipt after a message, nothing else, with only the first name, and at most three to an address a day', async () => {
    const page = await app.request('/privacy');
    assert.match(page.body, /Na je aanmelding sturen we je één e-mail met de link naar je bevestigingspagina\. Na een bericht sturen we je een\s+korte ontvangstbevestiging\. Verder mailen we je niet, en in die e-mails staat van jou alleen je voornaam\./);
    assert.match(page.body, /Eén e-mailadres krijgt van ons hoogstens drie e-mails in 24 uur/);
  });
});

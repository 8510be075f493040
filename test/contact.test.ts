/**
 * The contact form on the server (docs/forms.md §9): the form with its select and textarea,
 * every rule with its exact message (422, values kept), a stored message once per submission
 * key (303 to a thank-you page that shows nothing of it), the honeypot, the log lines without
 * personal data, and a rate limit of its own.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useApp } from './helpers/app.js';
import { attributesOf, CONTACT_RULE_CASES, CONTACT_VALID, fieldErrors, openForm, postForm } from './helpers/form.js';
import { contactMessages } from '../src/forms/contact.js';

const app = useApp({}, { FORM_RATE_LIMIT: '3/1m' });

/** The message stored under a submission key: saving it again answers with its id, stores nothing. */
async function storedUnder(key: string) {
  const again = await contactMessages(app.storage).save(key, { naam: 'x', email: 'x@x.nl', onderwerp: 'vraag', bericht: 'niet opgeslagen' });
  return again.created ? undefined : contactMessages(app.storage).find(again.id);
}

describe('the contact form (docs/forms.md §9)', () => {
  it('renders its fields: inputs, a select with an empty first option, a textarea, and the hidden fields', async () => {
    const res = await app.request('/contact');
    assert.equal(res.status, 200);
    assert.match(res.body, /<title>Contact · Eiland<\/title>/);
    const form = /<form [^>]*>/.exec(res.body)?.[0] ?? '';
    for (const attribute of ['method="post"', 'action="/contact"', 'noValidate=""', 'data-form="contact"']) assert.ok(form.includes(attribute), `${form} has ${attribute}`);
    assert.match(res.body, /<select id="onderwerp" name="onderwerp"><option value="" selected="">Kies een onderwerp<\/option><option value="vraag">Vraag<\/option><option value="klacht">Klacht<\/option><option value="compliment">Compliment<\/option><\/select>/);
    assert.match(res.body, /<textarea id="bericht" name="bericht" rows="6" aria-describedby="bericht-hint"><\/textarea>/);
    for (const name of ['_csrf', '_submission', 'bedrijf']) assert.match(res.body, new RegExp(`name="${name}"`));
    assert.doesNotMatch(res.body, /foutoverzicht|field-error/, 'no summary and no empty messages');
    assert.match(res.body, /<a href="\/contact" aria-current="page">Contact<\/a>/);
  });

  for (const [field, value, message] of CONTACT_RULE_CASES) {
    it(`${field} = ${JSON.stringify(value)?.slice(0, 40) ?? 'absent'} → ${message ?? 'valid'}`, async () => {
      const res = await postForm(app, '/contact', { ...CONTACT_VALID, [field]: value });
      if (message === null) {
        assert.deepEqual({ status: res.status, location: res.headers.location }, { status: 303, location: '/contact/bedankt' });
      } else {
        assert.deepEqual({ status: res.status, errors: fieldErrors(res.body) }, { status: 422, errors: { [field]: message } });
      }
    });
  }

  it('a failed post keeps every value, marks the field, titles the page "Fout: " and logs the names only', async () => {
    const values = { naam: 'Anna de Vries', email: 'geen-adres', onderwerp: 'klacht', bericht: 'Mijn <b>bericht</b> & meer.' };
    const res = await postForm(app, '/contact', values, undefined, { 'X-Request-Id': 'contact-422' });
    assert.equal(res.status, 422);
    assert.match(res.body, /<title>Fout: Contact · Eiland<\/title>/);
    assert.equal(attributesOf(res.body, 'input', 'naam')?.value, 'Anna de Vries');
    assert.match(res.body, /<option value="klacht" selected="">Klacht<\/option>/);
    assert.match(res.body, /<textarea id="bericht" name="bericht" rows="6" aria-describedby="bericht-hint">Mijn &lt;b&gt;bericht&lt;\/b&gt; &amp; meer\.<\/textarea>/);
    assert.deepEqual(attributesOf(res.body, 'input', 'email')?.['aria-invalid'], 'true');
    assert.match(res.body, /<h2 id="foutoverzicht-titel">Controleer de volgende velden<\/h2>/);
    const line = app.logs().find((l) => l.reqId === 'contact-422' && l.event === 'validation_failed');
    assert.deepEqual({ form: line?.form, route: line?.route, fields: line?.fields, count: line?.count }, { form: 'contact', route: '/contact', fields: ['email'], count: 1 });
    assert.ok(!app.rawLogs().some((l) => l.includes('geen-adres') || l.includes('Mijn <b>')), 'no values in the log');
  });

  it('stores a valid message once per submission key: a repeat gets the same 303', async () => {
    const session = await openForm(app, '/contact');
    const message = { ...CONTACT_VALID, naam: '  Bram Visser ', bericht: ' Graag een rondleiding voor tien personen. ' };
    const first = await postForm(app, '/contact', message, session, { 'X-Request-Id': 'contact-303' });
    const again = await postForm(app, '/contact', message, session);
    assert.deepEqual([first.status, first.headers.location, again.status, again.headers.location], [303, '/contact/bedankt', 303, '/contact/bedankt']);
    const stored = await storedUnder(session.key);
    assert.deepEqual({ ...stored, id: undefined, createdAt: undefined }, { id: undefined, createdAt: undefined, naam: 'Bram Visser', email: 'anna@voorbeeld.nl', onderwerp: 'vraag', bericht: 'Graag een rondleiding voor tien personen.' });
    const received = app.logs().filter((l) => l.event === 'contact_received');
    assert.deepEqual(received.slice(-2).map((l) => [l.subject, l.repeated]), [['vraag', false], ['vraag', true]]);
    assert.ok(!app.rawLogs().some((l) => /Bram Visser|anna@voorbeeld\.nl|rondleiding/.test(l)), 'nothing personal in the log');
  });

  it('the thank-you page shows nothing of what was sent', async () => {
    const res = await app.request('/contact/bedankt');
    assert.equal(res.status, 200);
    assert.match(res.body, /<h1>Bedankt voor je bericht<\/h1>/);
    assert.doesNotMatch(res.body, /Anna|Bram|voorbeeld\.nl|rondleiding/);
  });

  it('a filled honeypot is thanked and nothing is stored', async () => {
    const session = await openForm(app, '/contact');
    const res = await postForm(app, '/contact', { ...CONTACT_VALID, bedrijf: 'Spam BV' }, session);
    assert.deepEqual([res.status, res.headers.location], [303, '/contact/bedankt']);
    assert.equal(await storedUnder(session.key), undefined);
  });

  it('refuses bad shapes with 400: an unknown field, a subject sent twice', async () => {
    assert.equal((await postForm(app, '/contact', { ...CONTACT_VALID, website: 'https://x.nl' })).status, 400);
    assert.equal((await postForm(app, '/contact', { ...CONTACT_VALID, onderwerp: ['vraag', 'klacht'] })).status, 400);
  });

  it('counts its posts apart from the registration form’s', async () => {
    const registration = await openForm(app, '/aanmelden');
    for (let i = 0; i < 3; i++) assert.equal((await postForm(app, '/aanmelden', { naam: '' }, registration)).status, 422);
    assert.equal((await postForm(app, '/aanmelden', { naam: '' }, registration)).status, 429, 'the registration form is over its limit');
    const contact = await openForm(app, '/contact', registration.from);
    assert.equal((await postForm(app, '/contact', CONTACT_VALID, contact)).status, 303, 'from the same address, the contact form is not');
  });
});

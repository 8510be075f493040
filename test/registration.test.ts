/**
 * Registration without JavaScript (docs/forms.md): every rule with its exact message, the
 * re-rendered form, bad shapes and bodies refused, nothing lost or doubled, the confirmation page,
 * and logs that hold no personal data.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freshAddress, textOf, useApp, withApp, within } from './helpers/app.js';
import { attributesOf, cookiesOf, EMPTY_SUBMIT_ERRORS, encode, RULE_CASES, UNKNOWN_UUID, fieldErrors, openForm, postForm, VALID, type Fields } from './helpers/form.js';
import { openWire } from './helpers/wire.js';
import { registrations } from '../src/forms/registration.js';

const app = useApp();

describe('every rule of docs/forms.md §2 with its exact message', () => {
  for (const [field, value, message] of RULE_CASES) {
    // Valid: stored, and a 303 to its confirmation page; else the form again with that one message.
    const expected = message === null ? { status: 303, errors: {}, location: /^\/aanmeldingen\/[0-9a-f-]{36}$/ } : { status: 422, errors: { [field]: message }, location: /^$/ };
    it(`${field} = ${JSON.stringify(value)} → ${message ?? 'valid (303)'}`, async () => {
      const res = await postForm(app, '/aanmelden', { ...VALID, [field]: value });
      assert.deepEqual({ status: res.status, errors: fieldErrors(res.body) }, { status: expected.status, errors: expected.errors });
      assert.match(String(res.headers.location ?? ''), expected.location);
    });
  }
});

describe('the re-rendered form without JavaScript', () => {
  it('an empty submit shows every required message, the summary, and "Fout: " in the title', async () => {
    const res = await postForm(app, '/aanmelden', {});
    assert.equal(res.status, 422);
    assert.deepEqual(fieldErrors(res.body), EMPTY_SUBMIT_ERRORS);
    assert.equal(textOf(res.body, 'title'), 'Fout: Aanmelden · Eiland');
    const summaryAt = res.body.indexOf('Controleer de volgende velden');
    assert.ok(summaryAt > 0 && summaryAt < res.body.indexOf('<h1>'), 'summary above the <h1>');
  });

  it('keeps every value, checked boxes included', async () => {
    const fields: Fields = { ...VALID, naam: ' Anna "de" <Vries> ', gebruikersnaam: 'Anna', interesses: ['cultuur', 'muziek'], website: 'x' };
    const res = await postForm(app, '/aanmelden', fields);
    assert.equal(res.status, 422);
    const value = (id: string) => attributesOf(res.body, 'input', id)?.value;
    const checked = (id: string) => attributesOf(res.body, 'input', id)?.checked === '';
    assert.equal(value('naam'), ' Anna "de" <Vries> ');
    assert.equal(value('email'), 'anna@voorbeeld.nl');
    assert.equal(value('website'), 'x');
    assert.equal(value('gebruikersnaam'), 'Anna');
    assert.equal(value('landcode'), 'NL');
    assert.equal(value('personen'), '2');
    assert.deepEqual(
      ['techniek', 'cultuur', 'sport', 'natuur', 'muziek'].filter((v) => checked(`interesses-${v}`)),
      ['cultuur', 'muziek'],
    );
    assert.equal(checked('akkoord'), true);
  });

  it('links the summary to each failing field, marks it invalid and describes it by its message', async () => {
    const res = await postForm(app, '/aanmelden', { ...VALID, naam: '', interesses: undefined, landcode: 'nl' });
    for (const [field, anchor, message] of [
      ['naam', 'naam', 'Dit veld is verplicht'],
      ['interesses', 'interesses-techniek', 'must contain at least 1 value(s)'],
      ['landcode', 'landcode', 'the value must be upper case'],
    ] as const) {
      assert.match(res.body, new RegExp(`<a href="#${anchor}"( lang="en")?>${message.replace(/[()]/g, '\\$&')}</a>`), field);
      const input = new RegExp(`<input id="${anchor}"[^>]*>`).exec(res.body)?.[0] ?? '';
      assert.match(input, /aria-invalid="true"/, field);
      const describedBy = /aria-describedby="([^"]+)"/.exec(input)?.[1]?.split(' ') ?? [];
      assert.ok(describedBy.includes(`${field}-fout`), `${field}: ${describedBy.join(' ')}`);
      assert.match(res.body, new RegExp(`id="${field}-fout"[^>]*>${message.replace(/[()]/g, '\\$&')}<`));
    }
    assert.doesNotMatch(/<input id="email"[^>]*>/.exec(res.body)?.[0] ?? '', /aria-invalid/);
  });

  it('marks the English messages lang="en" inside the Dutch page', async () => {
    const res = await postForm(app, '/aanmelden', { ...VALID, naam: '', landcode: 'nl' });
    assert.match(res.body, /id="landcode-fout" lang="en">the value must be upper case</);
    assert.match(res.body, /id="naam-fout">Dit veld is verplicht</);
  });

  it('keeps the form JavaScript-free in its rules: novalidate, real input types and autocomplete', async () => {
    const res = await app.request('/aanmelden');
    const form = /<form\b[^>]*>/.exec(res.body)?.[0] ?? '';
    assert.match(form, /noValidate=""/);
    assert.match(form, /method="post"/);
    assert.match(form, /action="\/aanmelden"/);
    assert.deepEqual(
      ['naam', 'email', 'website', 'gebruikersnaam', 'landcode', 'personen'].map((id) => {
        const a = attributesOf(res.body, 'input', id)!;
        return `${id}:${a.type}:${a.autoComplete ?? ''}`;
      }),
      ['naam:text:name', 'email:email:email', 'website:url:url', 'gebruikersnaam:text:username', 'landcode:text:country', 'personen:number:'],
    );
    assert.match(res.body, /<button type="submit">Aanmelden<\/button>/);
    assert.match(res.body, /<a href="\/voorwaarden">voorwaarden<\/a>/);
    assert.equal(res.headers['cache-control'], 'private, no-store');
  });

  it('logs validation_failed with field names and count, never values', async () => {
    const res = await postForm(app, '/aanmelden', { ...VALID, naam: 'Q', email: 'geheim-adres' }, undefined, { 'X-Request-Id': 'val-1' });
    assert.equal(res.status, 422);
    const line = app.logs().find((l) => l.reqId === 'val-1' && l.event === 'validation_failed');
    assert.deepEqual(line?.fields, ['naam', 'email']);
    assert.equal(line?.count, 2);
    assert.equal(line?.route, '/aanmelden');
    assert.ok(!app.rawLogs().some((l) => l.includes('geheim-adres')));
  });
});

describe('bad shapes are refused with 400, never 500', () => {
  const shapes: Array<[what: string, body: (s: { token: string; key: string }) => string, type?: string]> = [
    ['an unknown field', (s) => encode({ ...VALID, _csrf: s.token, _submission: s.key, rol: 'admin' })],
    ['naam sent twice', (s) => `${encode({ ...VALID, _csrf: s.token, _submission: s.key })}&naam=Bob`],
    ['the token sent twice', (s) => `${encode({ ...VALID, _csrf: s.token, _submission: s.key })}&_csrf=${s.token}`],
    ['a __proto__ key', (s) => `${encode({ ...VALID, _csrf: s.token, _submission: s.key })}&__proto__=x`],
    ['a __proto__[x] key', (s) => `${encode({ ...VALID, _csrf: s.token, _submission: s.key })}&__proto__%5Bx%5D=1`],
    ['a constructor key', (s) => `${encode({ ...VALID, _csrf: s.token, _submission: s.key })}&constructor=x`],
    ['a prototype key', (s) => `${encode({ ...VALID, _csrf: s.token, _submission: s.key })}&prototype=x`],
    ['a nested key naam[x]', (s) => `${encode({ ...VALID, _csrf: s.token, _submission: s.key })}&naam%5Bx%5D=1`],
    ['a dotted key', (s) => `${encode({ ...VALID, _csrf: s.token, _submission: s.key })}&naam.x=1`],
    ['no submission key', (s) => encode({ ...VALID, _csrf: s.token })],
    ['a submission key that is not a UUID', (s) => encode({ ...VALID, _csrf: s.token, _submission: 'abc' })],
    ['a JSON body', (s) => JSON.stringify({ ...VALID, _csrf: s.token, _submission: s.key }), 'application/json'],
    // Once stored as literal text or U+FFFD; a body that does not parse is a 400 (docs/forms.md §6).
    ['malformed percent-encoding naam=%ZZ%', (s) => `${encode({ ...VALID, _csrf: s.token, _submission: s.key, naam: undefined })}&naam=%ZZ%`],
    ['overlong and invalid UTF-8 naam=%C0%AE%FF%FE', (s) => `${encode({ ...VALID, _csrf: s.token, _submission: s.key, naam: undefined })}&naam=%C0%AE%FF%FE`],
    ['a lone surrogate half %ED%A0%80', (s) => `${encode({ ...VALID, _csrf: s.token, _submission: s.key, naam: undefined })}&naam=A%ED%A0%80`],
    ['a bad escape in a name', (s) => `${encode({ ...VALID, _csrf: s.token, _submission: s.key })}&na%G1m=x`],
  ];
  for (const [what, body, type] of shapes) {
    it(what, async () => {
      const s = await openForm(app, '/aanmelden');
      const res = await app.request('/aanmelden', {
        method: 'POST',
        from: s.from,
        headers: { 'Content-Type': type ?? 'application/x-www-form-urlencoded', Cookie: s.cookie, 'Sec-Fetch-Site': 'same-origin', 'X-Csrf-Token': s.token },
        body: body(s),
      });
      assert.equal(res.status, 400);
      assert.equal(textOf(res.body, 'title'), '400: Bad Request');
    });
  }

  it('413 for a body over 32 KiB', async () => {
    const res = await postForm(app, '/aanmelden', { ...VALID, naam: 'x'.repeat(33 * 1024) });
    assert.equal(res.status, 413);
  });

  it('keeps well-encoded text: Zo%C3%AB is Zoë, + is a space', async () => {
    const s = await openForm(app, '/aanmelden');
    const res = await app.request('/aanmelden', {
      method: 'POST',
      from: s.from,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: s.cookie, 'Sec-Fetch-Site': 'same-origin' },
      body: `${encode({ ...VALID, _csrf: s.token, _submission: s.key, naam: undefined })}&naam=Zo%C3%AB+de+Vries`,
    });
    assert.equal(res.status, 303);
    const page = await app.request(String(res.headers.location));
    assert.match(page.body, /Zoë de Vries/);
  });

  for (const path of ['/aanmelden', '/_eiland/client-errors']) {
    /** Sends a request head and what follows it; the 413 must come and the connection close within 2 s. */
    async function refusedAtOnce(head: string, body = '') {
      const wire = await openWire(app.port, head + body);
      const ms = await within(wire.closed, 5000, 'the close of the refused connection');
      const { status, headers } = await wire.response;
      assert.ok(ms < 2000, `answered after ${ms} ms`);
      assert.equal(status, 413);
      assert.equal(headers.connection, 'close');
    }

    it(`${path}: a declared length over the limit is refused at once with 413, and the connection closed`, async () => {
      // 50 MB declared, none of it sent.
      await refusedAtOnce(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nSec-Fetch-Site: same-origin\r\nContent-Length: 52428800\r\n\r\n`);
    });

    it(`${path}: a chunked body is refused with 413 as soon as it passes the limit, not when it ends`, async () => {
      const chunk = 'x'.repeat(40 * 1024); // over both limits (32 KiB, 8 KiB); the body never ends
      const type = path === '/aanmelden' ? 'application/x-www-form-urlencoded' : 'text/plain'; // what each reads
      await refusedAtOnce(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\nSec-Fetch-Site: same-origin\r\nTransfer-Encoding: chunked\r\n\r\n`,
        `${chunk.length.toString(16)}\r\n${chunk}\r\n`,
      );
    });
  }
});

describe('nothing lost, nothing doubled', () => {
  it('stores a registration and answers 303 to its confirmation page', async () => {
    const before = await app.storage.countRegistrations();
    const res = await postForm(app, '/aanmelden', VALID);
    assert.equal(res.status, 303);
    assert.equal(await app.storage.countRegistrations(), before + 1);
    const id = String(res.headers.location).split('/').pop()!;
    const stored = await registrations(app.storage).find(id);
    assert.equal(stored?.naam, 'Anna de Vries');
    assert.deepEqual(stored?.interesses, ['sport', 'natuur']);
    assert.equal(stored?.personen, 2);
    assert.equal(stored?.referentie, null);
  });

  it('the same rendered form posted twice stores once and gets the same 303', async () => {
    const session = await openForm(app, '/aanmelden');
    const before = await app.storage.countRegistrations();
    const first = await postForm(app, '/aanmelden', VALID, session);
    const second = await postForm(app, '/aanmelden', { ...VALID, naam: 'Anders' }, session);
    assert.equal(first.status, 303);
    assert.equal(second.status, 303);
    assert.equal(second.headers.location, first.headers.location);
    assert.equal(await app.storage.countRegistrations(), before + 1);
  });

  it('a filled honeypot gets a neutral thank-you and stores nothing', async () => {
    const before = await app.storage.countRegistrations();
    const res = await postForm(app, '/aanmelden', { ...VALID, bedrijf: 'Spam BV' });
    assert.equal(res.status, 303);
    assert.equal(res.headers.location, '/aanmelden/bedankt');
    assert.equal(await app.storage.countRegistrations(), before);
    const page = await app.request('/aanmelden/bedankt');
    assert.equal(textOf(page.body, 'h1'), 'Bedankt voor je aanmelding');
  });

  it('an expired token re-renders the form with every value, a fresh token and the session message (403)', async () => {
    const stale = await openForm(app, '/aanmelden');
    // The browser lost its cookies (e.g. restarted): same origin, token no longer valid.
    const res = await postForm(app, '/aanmelden', { ...VALID, naam: 'Anna Verlopen' }, { ...stale, cookie: '' });
    assert.equal(res.status, 403);
    assert.match(res.body, /<p class="notice" role="alert">Je sessie is verlopen\. Verstuur het formulier opnieuw\.<\/p>/);
    assert.equal(attributesOf(res.body, 'input', 'naam')?.value, 'Anna Verlopen');
    assert.equal(attributesOf(res.body, 'input', 'interesses-natuur')?.checked, '');
    assert.equal(attributesOf(res.body, 'input', 'akkoord')?.checked, '');
    const token = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1] ?? '';
    assert.notEqual(token, stale.token);
    const again = await postForm(app, '/aanmelden', { ...VALID, naam: 'Anna Verlopen' }, { ...stale, cookie: cookiesOf(res), token });
    assert.equal(again.status, 303);
  });

  it('a cross-site post is still the 403 error page, not the form', async () => {
    const res = await postForm(app, '/aanmelden', VALID, undefined, { 'Sec-Fetch-Site': 'cross-site' });
    assert.equal(res.status, 403);
    assert.equal(textOf(res.body, 'title'), '403: An unexpected error has occurred');
  });

  it('rate-limits posts per client address (429), not other addresses', async () => {
    const from = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await postForm(app, '/aanmelden', { naam: '' }, await openForm(app, '/aanmelden', from))).status);
    assert.deepEqual(statuses.slice(0, 20), Array(20).fill(422));
    assert.equal(statuses[20], 429);
    assert.equal((await postForm(app, '/aanmelden', { naam: '' })).status, 422, 'another address is not limited');
  });

  it('takes its limit from FORM_RATE_LIMIT', () =>
    withApp({}, { FORM_RATE_LIMIT: '3/1m' }, async (limited) => {
      const from = freshAddress();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await postForm(limited, '/aanmelden', { naam: '' }, await openForm(limited, '/aanmelden', from))).status);
      assert.deepEqual(statuses, [422, 422, 422, 429]);
    }));
});

describe('the confirmation page /aanmeldingen/:id', () => {
  it('thanks by name, lists interests and persons, masks the e-mail address, is noindex', async () => {
    const res = await postForm(app, '/aanmelden', { ...VALID, naam: 'Bram', email: 'bram.jansen@voorbeeld.nl', interesses: ['techniek', 'muziek'], personen: '3' });
    const page = await app.request(String(res.headers.location));
    assert.equal(page.status, 200);
    assert.equal(textOf(page.body, 'title'), 'Bedankt voor je aanmelding · Eiland');
    assert.equal(textOf(page.body, 'h1'), 'Bedankt voor je aanmelding, Bram');
    assert.match(page.body, /<dd>Techniek, Muziek<\/dd>/);
    assert.match(page.body, /<dd>3<\/dd>/);
    assert.match(page.body, /<dd>b\*\*\*@voorbeeld\.nl<\/dd>/);
    assert.doesNotMatch(page.body, /bram\.jansen/);
    assert.match(page.body, /<meta name="robots" content="noindex"\/>/);
    assert.equal(page.headers['cache-control'], 'private, no-store');
  });
  it('400 for an id that is not a UUID', async () => {
    const res = await app.request('/aanmeldingen/123');
    assert.equal(res.status, 400);
    assert.equal(textOf(res.body, 'title'), '400: Bad Request');
  });
  it('404 for an unknown id', async () => {
    const res = await app.request(`/aanmeldingen/${UNKNOWN_UUID}`);
    assert.equal(res.status, 404);
  });
  it('the start page counts the stored registrations', async () => {
    const count = await app.storage.countRegistrations();
    const res = await app.request('/', { headers: { 'User-Agent': 'Googlebot/2.1' } });
    assert.match(res.body, new RegExp(`Er zijn ${count} aanmeldingen\\.`));
  });
});

describe('logs of a full registration', () => {
  it('contain no name, e-mail, token or cookie value', async () => {
    const session = await openForm(app, '/aanmelden');
    const res = await postForm(app, '/aanmelden', { ...VALID, naam: 'Geheime Naam', email: 'geheim@voorbeeld.nl' }, session, { 'X-Request-Id': 'vol-1' });
    assert.equal(res.status, 303);
    await app.request(String(res.headers.location), { headers: { Cookie: session.cookie } });
    const all = app.rawLogs().join('\n');
    for (const secret of ['Geheime', 'geheim@', session.token, ...session.cookie.split('; ').map((c) => c.split('=')[1]!)]) {
      assert.ok(!all.includes(secret), `log contains ${secret.slice(0, 12)}…`);
    }
    assert.ok(app.logs().some((l) => l.reqId === 'vol-1' && l.status === 303));
  });
});

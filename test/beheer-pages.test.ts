/**
 * Beheer's pages as the checkers read them (docs/beheer.md §8): every page and state of the route
 * table valid in the Nu Html Checker (no error, no warning), and usable in lynx: the login, the
 * lists with their search and filters, a submission, the erasure's question and the audit log.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { before, describe, it } from 'node:test';
import { registrations } from '../src/forms/registration.js';
import { contactMessages } from '../src/forms/contact.js';
import { useApp } from './helpers/app.js';
import { get, linkIn, login, setPassword, signIn, staff, type Signed } from './helpers/beheer.js';
import { CONTACT_VALID, VALID } from './helpers/form.js';
import { checkHtml } from './helpers/vnu.js';

const LYNX = process.env.LYNX_PATH ?? '/usr/bin/lynx';

/** `lynx -dump` of HTML given on stdin. */
async function lynx(html: string): Promise<string> {
  const child = execFile(LYNX, ['-dump', '-nolist', '-width=100', '-display_charset=utf-8', '-assume_charset=utf-8', '-force_html', '-stdin'], { encoding: 'utf8' });
  child.stdin!.end(html);
  let out = '';
  child.stdout!.on('data', (c: string) => (out += c));
  await new Promise((resolve, reject) => child.on('close', (code) => (code === 0 ? resolve(code) : reject(new Error(`lynx exited with ${code}`)))));
  return out;
}

describe('beheer’s pages in the checkers (docs/beheer.md §8)', () => {
  const app = useApp();
  let admin: Signed;
  let registration: string;
  let message: string;
  /** Every page and state, by name, with its expected status. */
  const pages = new Map<string, string>();

  before(async () => {
    admin = await signIn(app, 'admin');
    registration = (await registrations(app.storage).save(crypto.randomUUID(), { ...VALID, naam: 'Zoë <b>&amp;</b> "Ämmer"', personen: Number(VALID.personen), interesses: [VALID.interesses].flat() } as never)).id;
    message = (await contactMessages(app.storage).save(crypto.randomUUID(), CONTACT_VALID as never)).id;
    const link = linkIn((await staff(app, 'add', `pagina-${Date.now()}@example.org`, '--role', 'reader')).out);
    const add = async (name: string, res: Promise<{ status: number; body: string }>, status = 200) => {
      const answer = await res;
      assert.equal(answer.status, status, name);
      pages.set(name, answer.body);
    };
    await add('login', get(app, '/beheer/inloggen'));
    await add('login refused', login(app, 'onbekend@example.org', 'een verkeerd wachtwoord'), 401);
    await add('password', get(app, link));
    await add('password refused', setPassword(app, link, 'te kort'), 422);
    await add('overview', get(app, '/beheer', admin));
    await add('list', get(app, '/beheer/registration', admin));
    await add('list searched and filtered', get(app, '/beheer/registration?q=zoe&interesses=sport&van=2026-01-01&tot=2099-12-31', admin));
    await add('list empty', get(app, '/beheer/contact?q=niemand-heet-zo', admin));
    await add('contact list answered', get(app, '/beheer/contact?beantwoord=nee', admin));
    await add('registration', get(app, `/beheer/registration/${registration}`, admin));
    await add('contact message', get(app, `/beheer/contact/${message}`, admin));
    await add('erasure question', get(app, `/beheer/registration/${registration}/verwijderen`, admin));
    await add('audit log', get(app, '/beheer/logboek', admin));
  });

  it('are valid HTML: no error and no warning in the Nu Html Checker', async () => {
    const findings = await checkHtml([...pages].map(([name, html]) => ({ name, html })));
    assert.deepEqual(findings, []);
  });

  it('read in lynx: labels, buttons, the table and the links', async () => {
    const text = async (name: string) => (await lynx(pages.get(name)!)).replace(/\s+/g, ' ');
    assert.match(await text('login'), /E-mailadres.*Wachtwoord .*\(BUTTON\) Inloggen/);
    assert.match(await text('login refused'), /horen niet bij elkaar/);
    assert.match(await text('list searched and filtered'), /Zoek op naam of e-mailadres.*Interesses.*Vanaf \(datum\).*\(BUTTON\) Toon.*Download deze lijst als CSV.*Zoë <b>&amp;<\/b> "Ämmer"/);
    assert.match(await text('registration'), /Naam Zoë <b>&amp;<\/b> "Ämmer".*E-mailadres/);
    assert.match(await text('erasure question'), /\(BUTTON\) Ja, verwijder deze inzending/);
    assert.match(await text('audit log'), /Wanneer Wie Wat Waarover Adres/);
    assert.match(await text('overview'), /\(BUTTON\) Uitloggen/);
  });
});

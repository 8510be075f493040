/**
 * What readers without CSS or JavaScript get (docs/streaming.md §1), read by Debian's real
 * `lynx -dump`: the whole document at once (the count's value, never also its fallback), every
 * page's heading and links, and a form that carries an error summary only when it has errors.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { ROUTES } from '../protocol/routes.js';
import { wantsWholeDocument } from '../src/render/whole-document.js';
import { raw, useApp } from './helpers/app.js';
import { openForm, postForm } from './helpers/form.js';

const LYNX = process.env.LYNX_PATH ?? '/usr/bin/lynx';
const run = promisify(execFile);

/** `lynx -dump` of a URL, or of HTML given on stdin (as a text browser renders it). */
async function lynx(target: { url: string } | { html: string }): Promise<string> {
  const args = ['-dump', '-nolist', '-width=100', '-display_charset=utf-8', '-assume_charset=utf-8'];
  if ('url' in target) return (await run(LYNX, [...args, target.url], { encoding: 'utf8' })).stdout;
  const child = execFile(LYNX, [...args, '-force_html', '-stdin'], { encoding: 'utf8' });
  child.stdin!.end(target.html);
  let out = '';
  child.stdout!.on('data', (c: string) => (out += c));
  await new Promise((resolve, reject) => child.on('close', (code) => (code === 0 ? resolve(code) : reject(new Error(`lynx exited with ${code}`)))));
  return out;
}

describe('text browsers get the whole document (docs/streaming.md §1)', () => {
  it('recognises lynx, w3m, Links and ELinks, as well as bots; not browsers that run scripts', () => {
    for (const ua of ['Lynx/2.9.0dev.12 libwww-FM/2.14 SSL-MM/1.4.1 GNUTLS/3.7.9', 'w3m/0.5.3+git20230121', 'Links (2.28; Linux 6.1.0 x86_64; GNU C 12.2; text)', 'ELinks/0.16.1.1 (textmode; Linux; 80x24-2)', 'Googlebot/2.1 (+http://www.google.com/bot.html)']) {
      assert.equal(wantsWholeDocument(ua), true, ua);
    }
    assert.equal(wantsWholeDocument('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'), false);
  });
});

describe('lynx -dump reads every page right', () => {
  // A slow count: a streamed page would show its fallback first.
  const app = useApp({ countRegistrations: () => new Promise((r) => setTimeout(() => r(3), 200)) });

  it('/: the count, never also its fallback', async () => {
    const text = await lynx({ url: `${app.url}/` });
    assert.match(text, /Welkom bij Eiland/);
    assert.match(text, /Er zijn 3 aanmeldingen\./);
    assert.doesNotMatch(text, /nog niet bekend/);
    assert.match(text, /polderlandschap/, "the hero's alt text stands in for it");
  });

  for (const route of ROUTES.filter((r) => !r.path.includes(':'))) {
    it(`${route.path}: heading, navigation and footer`, async () => {
      const text = await lynx({ url: app.url + route.path });
      assert.match(text, /Naar de inhoud/);
      assert.match(text, /Privacyverklaring/);
      assert.match(text, /Voorwaarden/);
      assert.doesNotMatch(text, /Controleer de volgende velden/, 'no error summary on a page without errors');
    });
  }

  it('/aanmelden: every field with its label, the button, and no error summary in the HTML', async () => {
    const res = await raw(app.port, '/aanmelden');
    assert.doesNotMatch(res.body, /error-summary|foutoverzicht/, 'the island creates the summary when needed');
    const text = await lynx({ html: res.body });
    for (const label of ['Naam', 'E-mailadres', 'Website (optioneel)', 'Gebruikersnaam', 'Landcode', 'Techniek', 'Aantal personen', 'Ik ga akkoord met de']) {
      assert.ok(text.includes(label), label);
    }
    assert.match(text, /\(BUTTON\) Aanmelden/);
  });

  it('/contact: every field with its label, the choices of the subject, the button', async () => {
    const res = await raw(app.port, '/contact');
    const text = await lynx({ html: res.body });
    for (const label of ['Naam', 'E-mailadres', 'We antwoorden op dit adres.', 'Onderwerp', 'Kies een onderwerp', 'Bericht', 'Minstens 10 en hoogstens 2000 tekens.']) {
      assert.ok(text.includes(label), label);
    }
    assert.match(text, /\(BUTTON\) Versturen/);
    assert.doesNotMatch(text, /Controleer de volgende velden/);
  });

  it('/contact after a failed post: the summary and each message, in reading order', async () => {
    const res = await postForm(app, '/contact', { naam: 'A', email: '', onderwerp: 'spam', bericht: 'kort' }, await openForm(app, '/contact'));
    assert.equal(res.status, 422);
    const text = await lynx({ html: res.body });
    const summary = text.indexOf('Controleer de volgende velden');
    assert.ok(summary >= 0 && summary < text.indexOf('Heb je een vraag'), 'the summary, above the form');
    for (const line of [/Naam: at least 2 characters/, /E-mailadres: Dit veld is verplicht/, /Onderwerp: Invoer is niet geldig/, /Bericht: at least 10 characters/]) assert.match(text, line);
    const order = ['at least 2 characters', 'Dit veld is verplicht', 'Invoer is niet geldig', 'at least 10 characters'].map((m) => text.indexOf(m, summary));
    assert.deepEqual([...order].sort((a, b) => a - b), order, 'in form order');
  });

  it('/aanmelden after a failed post: the summary and each message, in reading order', async () => {
    const res = await postForm(app, '/aanmelden', { naam: '' }, await openForm(app, '/aanmelden'));
    assert.equal(res.status, 422);
    const text = await lynx({ html: res.body });
    const summary = text.indexOf('Controleer de volgende velden');
    assert.ok(summary >= 0, 'the summary');
    assert.ok(summary < text.indexOf('Meld je aan in een minuut'), 'above the form');
    assert.match(text, /Naam: Dit veld is verplicht/);
  });
});

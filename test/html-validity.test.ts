/**
 * The Nu Html Checker over every page and form state (docs/qa-kit.md §6): as a person's browser
 * gets them (streamed) and as a bot does (the whole document at once), and the DOM the form
 * islands leave after a client-side validation, serialised by Chromium and by Firefox — all in one
 * vnu run. No error may remain, and no warning outside {@link ALLOWED}.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { CSRF_FIELD } from '../protocol/forms.js';
import { BOT_USER_AGENT, hydrateIsland } from './e2e/kit.js';
import { freePort, useApp, type RawResponse, type SuiteTestApp } from './helpers/app.js';
import type { BrowserName } from './e2e/kit.js';
import { launchBrowser, withPage } from './helpers/browser-suite.js';
import { browserLabel } from './helpers/e2e-browsers.js';
import { fillForm, FORM_KITS, postForm, type Fields, type FormKit } from './helpers/form.js';
import { checkHtml, unexplained, type AllowedWarning, type Finding, type HtmlDocument } from './helpers/vnu.js';
import { PAGE_PATHS } from './helpers/site-pages.js';

/** Warnings the suite accepts, each with its reason (docs/qa-kit.md §6). Empty: none is. */
const ALLOWED: readonly AllowedWarning[] = [];

/** A person's Chrome: isbot says no, so pages stream (docs/streaming.md §1). */
const PERSON_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

/** Who asks: each server-side state is fetched as both. */
const CLIENTS = { browser: PERSON_USER_AGENT, bot: BOT_USER_AGENT } as const;

/** Every page of docs/pages.md that a GET reaches without a post. */
const PAGES = PAGE_PATHS;

/** The document the checker must refuse: the summary as it was, `aria-labelledby` on a `<div>`. */
const CONTROL: HtmlDocument = {
  name: 'control: aria-labelledby on a div',
  html: '<!DOCTYPE html><html lang="nl"><head><meta charset="utf-8"><title>Controle</title></head><body><h1>Controle</h1><div id="foutoverzicht" tabindex="-1" aria-labelledby="foutoverzicht-titel"><h2 id="foutoverzicht-titel">Controleer de volgende velden</h2></div></body></html>',
};

/**
 * The posts of a form that fail validation: each failing row of its rule table, one post each.
 * Every message of the form, and each value as the table gives it: a value shown back can itself
 * break the markup (docs/forms.md §4).
 */
function failingInputs(kit: FormKit): Array<readonly [label: string, fields: Fields]> {
  return kit.cases.filter(([, , message]) => message !== null).map(([field, value, message]) => [`${field} = ${JSON.stringify(value)?.slice(0, 40)}: ${message}`, { ...kit.valid, [field]: value }] as const);
}

/** A post in which every field fails at once: each field's first failing value in the table. */
function everyFieldFailing(kit: FormKit): Fields {
  const fields: Fields = {};
  for (const [field, value, message] of kit.cases) if (message !== null && !(field in fields)) fields[field] = value;
  return fields;
}

/**
 * Every server-rendered state, as one client gets it: each page, each form empty, failing in
 * every field, failing with each message, after success, and the 403 and 404 pages.
 * @throws AssertionError when a response has another status than its state has
 */
async function serverDocuments(app: SuiteTestApp, client: keyof typeof CLIENTS): Promise<HtmlDocument[]> {
  const headers = { 'User-Agent': CLIENTS[client] };
  const documents: HtmlDocument[] = [];
  const take = (name: string, res: RawResponse, status: number) => {
    assert.equal(res.status, status, `${client} ${name}`);
    documents.push({ name: `${client} ${name} → ${status}`, html: res.body });
  };
  const get = (path: string) => app.request(path, { headers });
  for (const path of [...PAGES, '/bestaat-niet']) take(`GET ${path}`, await get(path), path === '/bestaat-niet' ? 404 : 200);
  for (const kit of Object.values(FORM_KITS)) {
    const post = (fields: Fields) => postForm(app, kit.path, fields, undefined, headers);
    take(`POST ${kit.path} empty`, await post({}), 422);
    take(`POST ${kit.path} every field failing`, await post(everyFieldFailing(kit)), 422);
    for (const [label, fields] of failingInputs(kit)) take(`POST ${kit.path} ${label}`, await post(fields), 422);
    const success = await post(kit.valid);
    assert.equal(success.status, 303, `${client} POST ${kit.path} valid`);
    const location = String(success.headers.location);
    take(`GET ${location} after POST ${kit.path}`, await get(location), 200);
    // A stored registration's erasure, asked once more (docs/pages.md §7).
    if (location.startsWith('/aanmeldingen/')) take(`GET ${location}/verwijderen`, await get(`${location}/verwijderen`), 200);
  }
  take('POST /aanmelden without a CSRF token', await postForm(app, '/aanmelden', { ...FORM_KITS.registration!.valid, [CSRF_FIELD]: undefined }, undefined, headers), 403);
  take('POST /aanmelden with a bad CSRF token', await postForm(app, '/aanmelden', { ...FORM_KITS.registration!.valid, [CSRF_FIELD]: 'ongeldig' }, undefined, headers), 403);
  return documents;
}

/** The browsers whose DOM is checked after a client-side validation. */
const BROWSERS: readonly BrowserName[] = ['chromium', 'firefox'];

/**
 * The DOM each form island leaves after a client-side validation (JavaScript on) in one browser:
 * the empty form submitted, and the form with wrong formats submitted, each serialised once the
 * summary has focus. Documents are named `island <browser> …`.
 */
async function islandDocuments(app: SuiteTestApp, name: BrowserName): Promise<HtmlDocument[]> {
  const browser = await launchBrowser({ browser: name });
  const documents: HtmlDocument[] = [];
  try {
    for (const kit of Object.values(FORM_KITS)) {
      for (const [state, fields] of [['empty', {}], ['wrong formats', kit.wrongFormats]] as const) {
        documents.push(
          await withPage(browser, {}, async ({ page }) => {
            await page.goto(`${app.url}${kit.path}`);
            await hydrateIsland(page, kit.island);
            await fillForm(page, fields);
            await page.click('button[type="submit"]');
            await page.waitForFunction('document.activeElement?.id === "foutoverzicht"', { timeout: 3000 });
            return { name: `island ${name} ${kit.path} ${state} submitted`, html: await page.content() };
          }),
        );
      }
    }
  } finally {
    await browser.close();
  }
  return documents;
}

// Served as in production, with its public origin: canonical URLs and Open Graph are checked too.
const app = useApp({}, async () => {
  const port = await freePort();
  return { PORT: String(port), PUBLIC_ORIGIN: `http://127.0.0.1:${port}` };
});

describe('the Nu Html Checker over every page and form state (docs/qa-kit.md §6)', () => {
  let documents: HtmlDocument[] = [];
  let findings: Finding[] = [];
  before(async () => {
    documents = [...(await serverDocuments(app, 'browser')), ...(await serverDocuments(app, 'bot'))];
    for (const name of BROWSERS) documents.push(...(await islandDocuments(app, name)));
    findings = await checkHtml([...documents, CONTROL]);
  });

  it('checks every document in one run, and refuses the control document', (t) => {
    t.diagnostic(`vnu checked ${documents.length} documents (and the control document) in one run`);
    // The production head is among them: canonical URL and Open Graph (docs/pages.md §8).
    const start = documents.filter((d) => d.name.startsWith('browser GET / →') || d.name.startsWith('bot GET / →'));
    assert.equal(start.length, 2);
    for (const d of start) assert.match(d.html, /<link rel="canonical" href="http:\/\/127\.0\.0\.1:\d+\/"\/>[\s\S]*<meta property="og:image"/, d.name);
    const control = findings.filter((f) => f.document === CONTROL.name);
    assert.deepEqual(control.map((f) => f.kind), ['error'], control.map((f) => f.message).join('\n'));
    assert.match(control[0]!.message, /“aria-labelledby” attribute must not be specified on any “div” element/);
  });

  const groups = ['browser', 'bot', ...BROWSERS.map((name) => `island ${name}`)];
  for (const group of groups) {
    const what = group.startsWith('island ') ? `islands leave in ${browserLabel(group.slice('island '.length) as BrowserName)}` : `server sends a ${group}`;
    it(`finds no error and no warning outside the allow-list in what the ${what}`, () => {
      const inGroup = documents.filter((d) => d.name.startsWith(`${group} `));
      assert.ok(inGroup.length > 0, `documents of ${group}`);
      const problems = unexplained(findings.filter((f) => f.document.startsWith(`${group} `)), ALLOWED);
      assert.deepEqual(problems.map((f) => `${f.document} (line ${f.line}): ${f.kind}: ${f.message} ${JSON.stringify(f.extract)}`), []);
    });
  }
});

/**
 * Accessibility (docs/pages.md §3, docs/forms.md §4–§5): axe-core finds no WCAG 2.1 A/AA violation
 * in any state of any page — every page, the error pages, the form empty, with every error and
 * after success — with JavaScript on and off, in light and dark; nothing scrolls sideways at
 * 320 px or at 200 % zoom; the form can be completed with the keyboard alone.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { HTTPRequest, Page } from 'puppeteer-core';
import { browserSuite, withPage, type TestPage } from '../helpers/browser-suite.js';
import { CONTACT_VALID, fillForm, FORM_KITS, SANNE, VALID, type FormKit } from '../helpers/form.js';
import { PAGE_PATHS } from '../helpers/site-pages.js';
import { violations } from '../helpers/axe.js';
import { BASE_URL, hydrateIsland, withFailureArtifacts, type PageOptions } from './kit.js';
import { registrations } from '../../src/forms/registration.js';

const suite = browserSuite();
/** A state of the site to check: how to reach it in an open page. */
type State = [name: string, reach: (page: Page, javaScript: boolean) => Promise<void>];

/**
 * An error page a browser cannot ask for by navigating (a cross-site post, another method):
 * the server's real answer, fetched here, is handed to the page as its document, with its
 * headers (the CSP and its nonce); its stylesheet and scripts load from the server as usual.
 */
function errorPage(status: number, path: string, init: RequestInit): State {
  return [
    `${status} error page`,
    async (page) => {
      const res = await fetch(suite.app.url + path, init);
      assert.equal(res.status, status);
      const body = await res.text();
      const headers = Object.fromEntries([...res.headers].filter(([name]) => !['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name)));
      const target = `${suite.app.url}/_a11y/${status}`;
      await page.setRequestInterception(true);
      const handler = (request: HTTPRequest) => {
        if (request.url() === target) void request.respond({ status, headers, body });
        else void request.continue();
      };
      page.on('request', handler);
      try {
        await page.goto(target, { waitUntil: 'load' });
      } finally {
        page.off('request', handler);
        await page.setRequestInterception(false);
      }
    },
  ];
}

/** A form page after an empty submit: every field fails (with JavaScript: in place; without: the 422 page). */
function everyError({ path, island, submit: button }: FormKit): State {
  return [
    `${path} with every error`,
    async (page, javaScript) => {
      await page.goto(suite.app.url + path, { waitUntil: 'load' });
      if (javaScript) await hydrateIsland(page, island);
      // By role and name; an element handle, as locators wait with scripts in the page.
      const submit = (await page.$(`::-p-aria(${button}[role="button"])`))!;
      if (javaScript) await submit.click();
      else await Promise.all([page.waitForNavigation(), submit.click()]);
      if (javaScript) await page.waitForSelector('#foutoverzicht');
      assert.ok(await page.$('::-p-aria(Controleer de volgende velden)'), 'the error summary');
    },
  ];
}

const STATES: State[] = [
  ...PAGE_PATHS.map((path): State => [path, async (page) => void (await page.goto(suite.app.url + path, { waitUntil: 'load' }))]),
  ['404 error page', async (page) => void (await page.goto(`${suite.app.url}/bestaat-niet`, { waitUntil: 'load' }))],
  ['400 error page', async (page) => void (await page.goto(`${suite.app.url}/%zz`, { waitUntil: 'load' }))],
  errorPage(403, '/aanmelden', { method: 'POST', headers: { 'Sec-Fetch-Site': 'cross-site', 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'naam=x' }),
  errorPage(405, '/over', { method: 'PUT' }),
  ...Object.values(FORM_KITS).map(everyError),
  ['/contact after success', async (page, javaScript) => {
    await page.goto(`${suite.app.url}/contact`, { waitUntil: 'load' });
    if (javaScript) await hydrateIsland(page, 'ContactForm');
    await fillForm(page, { ...CONTACT_VALID, bericht: 'Hoe laat begint de rondleiding?' }, { typing: 'type' });
    const submit = (await page.$('::-p-aria(Versturen[role="button"])'))!;
    // With JavaScript the post continues as a router navigation; without, the 303 loads the page.
    if (javaScript) await submit.click();
    else await Promise.all([page.waitForNavigation(), submit.click()]);
    await page.waitForFunction('location.pathname === "/contact/bedankt" && document.querySelector("h1")?.textContent === "Bedankt voor je bericht"');
  }],
  ['/aanmeldingen/:id after success', async (page) => void (await page.goto(suite.app.url + (await confirmationPath()), { waitUntil: 'load' }))],
  ['/aanmeldingen/:id/verwijderen, asked once more', async (page) => void (await page.goto(`${suite.app.url}${await confirmationPath()}/verwijderen`, { waitUntil: 'load' }))],
];

/** A registration to show, made once (local: straight into storage; remote: a no-JS form post). */
let registered: Promise<string> | undefined;
function confirmationPath(): Promise<string> {
  registered ??= (async () => {
    if (!BASE_URL) {
      const { id } = await registrations(suite.local.storage).save(randomUUID(), { ...VALID, website: null, referentie: null, interesses: ['sport', 'natuur'], personen: 2 } as never);
      return `/aanmeldingen/${id}`;
    }
    return withPage(suite.chromium, { javaScript: false }, async ({ page }) => {
      await page.goto(`${BASE_URL}/aanmelden`);
      // Mouse and typing: the no-JS post that makes a registration.
      await fillForm(page, SANNE, { typing: 'type' });
      await Promise.all([page.waitForNavigation(), (await page.$('::-p-aria(Aanmelden[role="button"])'))!.click()]);
      return new URL(page.url()).pathname;
    });
  })();
  return registered;
}

describe('the axe harness', () => {
  it('finds a violation where there is one (an image without alt, an unlabeled field)', () =>
    withPage(suite.chromium, {}, async ({ page }) => {
      await page.setContent('<!doctype html><html lang="nl"><title>t</title><main><img src="data:,"><input></main></html>');
      const found = await violations(page);
      assert.ok(found.some((v) => v.startsWith('image-alt:')), found.join(' | '));
      assert.ok(found.some((v) => v.startsWith('label:')), found.join(' | '));
    }));
});

for (const javaScript of [true, false]) {
  for (const colorScheme of ['light', 'dark'] as const) {
    describe(`axe: no WCAG 2.1 A/AA violation, JavaScript ${javaScript ? 'on' : 'off'}, ${colorScheme}`, () => {
      // One page for the states of a mode, each reached by a navigation of its own: the page's
      // renderer stays, and keeps axe compiled from one state to the next (pages share their
      // cookies either way: they are of one browser).
      let tab: TestPage | undefined;
      before(async () => {
        tab = await suite.chromium.newPage({ javaScript, colorScheme });
      });
      after(() => tab?.page.close());
      for (const [name, reach] of STATES) {
        it(name, async () => {
          const { page, errors } = tab!;
          const seen = errors.length;
          // A no-JS state turned scripts on for axe: off again before the next is reached.
          await page.setJavaScriptEnabled(javaScript);
          await withFailureArtifacts(page, `axe ${name} ${javaScript ? 'js' : 'nojs'} ${colorScheme}`, async () => {
            await reach(page, javaScript);
            // axe needs timers: scripts on again once the no-JS page is loaded (nothing already
            // skipped runs late, so the page stays as a no-JS visitor has it).
            if (!javaScript) await page.setJavaScriptEnabled(true);
            assert.deepEqual(await violations(page), []);
          });
          assert.deepEqual(
            errors.slice(seen).filter((e) => !/status of 4\d\d/.test(e)),
            [],
          );
        });
      }
    });
  }
}

describe('no horizontal scrolling', () => {
  const layouts: [string, PageOptions][] = [
    ['320 px', { width: 320, height: 640 }],
    ['200 % zoom', { width: 1280, height: 800, zoom: 2 }],
  ];
  for (const [layout, options] of layouts) {
    it(`at ${layout}, on every state`, () =>
      withPage(suite.chromium, options, async ({ page }) => {
        for (const [name, reach] of STATES) {
          await reach(page, true);
          const overflow = (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
          assert.equal(overflow, 0, `${name} scrolls sideways by ${overflow} px`);
        }
      }));
  }
});

describe('the registration form with the keyboard alone (JavaScript on)', () => {
  /** Presses Tab until the focused element matches, at most `max` times; returns what was focused on the way. */
  async function tabTo(page: Page, selector: string, max = 40): Promise<string[]> {
    const passed: string[] = [];
    for (let i = 0; i < max; i++) {
      await page.keyboard.press('Tab');
      const id = (await page.evaluate('document.activeElement ? (document.activeElement.id || document.activeElement.getAttribute("name") || document.activeElement.tagName) : ""')) as string;
      passed.push(id);
      if ((await page.evaluate(`document.activeElement === document.querySelector(${JSON.stringify(selector)})`)) as boolean) return passed;
    }
    throw new Error(`${selector} not reached by Tab; focus went ${passed.join(' → ')}`);
  }

  it('tab order follows the form, focus is visible, the honeypot is never reached, summary links move focus, and the form completes', () =>
    withPage(suite.chromium, {}, async ({ page, errors }) => {
      await withFailureArtifacts(page, 'keyboard-only registration', async () => {
        await page.goto(`${suite.app.url}/aanmelden`);
        await hydrateIsland(page, 'RegistrationForm');
        const order = ['naam', 'email', 'website', 'referentie', 'gebruikersnaam', 'landcode', 'interesses-techniek'];
        await tabTo(page, '#naam');
        for (const id of order.slice(1)) {
          const more = await tabTo(page, `#${id}`, 3);
          assert.equal(more.length, 1, `${id} follows directly (went ${more.join(' → ')})`);
        }
        // Visible focus: the focused field has an outline.
        const outline = (await page.evaluate('getComputedStyle(document.activeElement).outlineStyle + " " + getComputedStyle(document.activeElement).outlineWidth')) as string;
        assert.match(outline, /^solid [1-9]/, `focus outline ${outline}`);

        // An empty submit from the keyboard: the summary takes focus; its link moves focus to the field.
        await tabTo(page, 'button[type="submit"]');
        await page.keyboard.press('Enter');
        await page.waitForFunction('document.activeElement && document.activeElement.id === "foutoverzicht"');
        await page.keyboard.press('Tab');
        const target = (await page.evaluate('document.activeElement.getAttribute("href")')) as string;
        await page.keyboard.press('Enter');
        await page.waitForFunction(`document.activeElement && "#" + document.activeElement.id === ${JSON.stringify(target)}`);

        // Fill everything by keyboard, from the first field.
        await page.focus('#naam');
        await page.keyboard.type('Sanne Bakker');
        for (const [id, value] of [['email', 'sanne@voorbeeld.nl'], ['website', ''], ['referentie', ''], ['gebruikersnaam', 'sanne_b'], ['landcode', 'NL']]) {
          await page.keyboard.press('Tab');
          assert.equal(await page.evaluate('document.activeElement.id'), id);
          await page.keyboard.type(value!);
        }
        await tabTo(page, '#interesses-sport', 5);
        await page.keyboard.press('Space');
        await tabTo(page, '#personen', 8);
        await page.keyboard.type('2');
        await tabTo(page, '#akkoord', 3);
        await page.keyboard.press('Space');
        const rest = await tabTo(page, 'button[type="submit"]', 5);
        assert.ok(!rest.includes('website2') && !rest.some((r) => /honeypot|hp/i.test(r)), 'the honeypot is never focused');
        await Promise.all([page.waitForFunction('location.pathname.startsWith("/aanmeldingen/")', { timeout: 10_000 }), page.keyboard.press('Enter')]);
        assert.match(await page.title(), /^Bedankt voor je aanmelding/);
      });
      assert.deepEqual(errors, []);
    }));

  it('the honeypot is hidden from screen readers and out of the tab order', () =>
    withPage(suite.chromium, {}, async ({ page }) => {
      await page.goto(`${suite.app.url}/aanmelden`);
      const snapshot = await page.accessibility.snapshot({ interestingOnly: false });
      const names: string[] = [];
      const walk = (node: { name?: string; children?: unknown[] } | null) => {
        if (!node) return;
        if (node.name) names.push(node.name);
        for (const child of (node.children ?? []) as (typeof node)[]) walk(child);
      };
      walk(snapshot as never);
      assert.ok(names.includes('Naam'), 'the tree has the fields');
      assert.ok(!names.includes('Laat dit veld leeg'), 'but not the honeypot');
      const tabIndex = (await page.evaluate('(() => { const label = [...document.querySelectorAll("label")].find((l) => l.textContent === "Laat dit veld leeg"); return document.getElementById(label.htmlFor).tabIndex; })()')) as number;
      assert.equal(tabIndex, -1);
    }));
});

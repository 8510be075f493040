/**
 * Every page in each browser of `E2E_BROWSERS` (docs/pages.md §3, docs/islands.md §3,
 * docs/streaming.md §1, docs/qa-kit.md §7): title, heading, layout and navigation with JavaScript
 * on and off, only the scripts a page needs, the streamed count, and the layout at 320 px and in
 * dark mode.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserSuite, needsServer, withPage, type BrowserSuite } from '../helpers/browser-suite.js';
import { eachBrowser, skipIn } from '../helpers/e2e-browsers.js';
import { useApp } from '../helpers/app.js';
import { MENU_LABELS, PAGES } from '../helpers/site-pages.js';
import { STYLESHEET_WAIT } from '../../views/Document.js';
import { hydrateIsland } from './kit.js';

/**
 * The scripts a page requests, sorted (docs/islands.md §3): none without JavaScript; with it, the
 * router and, where islands are, the islands runtime, the islands' chunks and their imports
 * (loaded after the first paint) — no React anywhere else.
 */
async function expectedScripts(suite: BrowserSuite, javaScript: boolean, islands: readonly string[]): Promise<string[]> {
  if (!javaScript) return [];
  const { router, runtime, islands: chunks } = await suite.manifest();
  const islandModules = islands.length === 0 ? [] : [runtime.file, ...runtime.imports, ...islands.flatMap((name) => [chunks[name]!.file, ...chunks[name]!.imports])];
  return [...new Set([router.file, ...islandModules])].sort();
}

eachBrowser((browser) => {
  // A slow count, so the Suspense boundary really streams in after the shell.
  const suite = browserSuite({ countRegistrations: () => new Promise((r) => setTimeout(() => r(3), 300)) }, browser);

  for (const javaScript of [false, true]) {
    describe(`every page reads well with JavaScript ${javaScript ? 'on' : 'off'}`, () => {
      // Every page of the route table, with its title, heading and navigation label (test/helpers/site-pages.ts).
      for (const { path, title, heading, navigation, islands } of PAGES) {
        it(`${path}: title, heading, layout, navigation, no console errors${javaScript ? ', JavaScript only with islands' : ''}`, () =>
          withPage(suite.browser, { javaScript }, async ({ page, errors }) => {
            const scripts: string[] = [];
            // By extension: Firefox over BiDi has no resourceType() (docs/qa-kit.md §7); every script is a .js asset.
            page.on('request', (r) => new URL(r.url()).pathname.endsWith('.js') && scripts.push(r.url()));
            await page.goto(suite.app.url + path, { waitUntil: 'load' });
            assert.equal(await page.title(), title);
            assert.equal(await page.$eval('h1', (e) => e.textContent), heading);
            assert.equal(await page.$eval('html', (e) => e.getAttribute('lang')), 'nl');
            assert.deepEqual(await page.$$eval('nav a', (els) => els.map((e) => e.textContent)), MENU_LABELS.main);
            const current = await page.$$eval('nav [aria-current="page"]', (els) => els.map((e) => e.textContent));
            assert.deepEqual(current, navigation ? [navigation] : []);
            assert.deepEqual(await page.$$eval('footer a', (els) => els.map((e) => e.textContent)), MENU_LABELS.footer);
            // Stylesheet applied (CSP allows it), favicon served: no console errors at all.
            assert.equal(await page.$eval('.skip-link', (e) => getComputedStyle(e).position), 'absolute');
            assert.deepEqual(errors, []);
            // The islands hydrate with JavaScript, on a first interaction, and only then; nothing
            // hydrates where none is.
            const hydrated = javaScript ? islands.length : 0;
            if (javaScript) for (const island of islands) await hydrateIsland(page, island);
            await page.waitForFunction(`document.querySelectorAll('[data-hydrated="true"]').length === ${hydrated}`, { timeout: 5000 });
            assert.deepEqual(scripts.map((u) => new URL(u).pathname).sort(), await expectedScripts(suite, javaScript, islands), 'only the scripts of its islands: no React, no runtime without one');
            assert.deepEqual(errors, [], 'no hydration warning');
          }));
      }

      it('the skip link is the first stop and leads to the content', () =>
        withPage(suite.browser, { javaScript }, async ({ page }) => {
          await page.goto(`${suite.app.url}/over`);
          await page.keyboard.press('Tab');
          assert.equal(await page.evaluate('document.activeElement.textContent'), 'Naar de inhoud');
          await page.keyboard.press('Enter');
          await page.waitForFunction('location.hash === "#inhoud"');
        }));

      it('shows the error page of an unknown path', () =>
        withPage(suite.browser, { javaScript }, async ({ page }) => {
          const res = await page.goto(`${suite.app.url}/bestaat-niet`);
          assert.equal(res?.status(), 404);
          assert.equal(await page.title(), '404: This page could not be found');
          assert.equal(await page.$eval('h2', (e) => `${e.getAttribute('lang')}:${e.textContent}`), 'en:This page could not be found');
        }));
    });
  }

  describe('the start page streams its count', { skip: needsServer('a slow registration count') }, () => {
    it('with JavaScript on, the count replaces the fallback (React reveal script allowed by the nonce)', () =>
      withPage(suite.browser, { javaScript: true }, async ({ page, errors }) => {
        await page.goto(`${suite.app.url}/`);
        // By its text: the count's paragraph under the "Aanmeldingen" heading.
        // Visible: until React reveals it, the streamed count waits in a hidden element.
        await page.waitForSelector('::-p-text(Er zijn 3 aanmeldingen.)', { timeout: 5000, visible: true });
        await page.waitForFunction('!document.querySelector("main").innerText.includes("nog niet bekend")', { timeout: 2000 });
        assert.deepEqual(errors, [], 'no CSP violation');
      }));

    it('with JavaScript off, the fallback reads well on its own', () =>
      withPage(suite.browser, { javaScript: false }, async ({ page }) => {
        await page.goto(`${suite.app.url}/`);
        const visible = await page.$$eval('main p', (els) => els.filter((e) => e.checkVisibility() && /aanmeldingen/.test(e.textContent ?? '')).map((e) => e.textContent));
        assert.deepEqual(visible, ['Het aantal aanmeldingen is nog niet bekend.']);
      }));
  });

  describe('layout', () => {
    it('is usable at 320 px wide: nothing scrolls sideways', () =>
      withPage(suite.browser, { width: 320 }, async ({ page }) => {
        for (const { path } of PAGES) {
          await page.goto(suite.app.url + path);
          const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
          assert.equal(overflow, 0, path);
        }
      }));

    it('follows the dark colour scheme', { skip: skipIn(browser, 'firefox', 'emulates no media features over BiDi') }, () =>
      withPage(suite.browser, {}, async ({ page }) => {
        await page.goto(`${suite.app.url}/over`);
        const light = await page.evaluate('getComputedStyle(document.body).backgroundColor');
        await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
        const dark = await page.evaluate('getComputedStyle(document.body).backgroundColor');
        assert.equal(light, 'rgb(255, 255, 255)');
        assert.equal(dark, 'rgb(13, 17, 23)');
      }));
  });

  describe('the start page with a count known at once', { skip: needsServer('a count known at once') }, () => {
    // SQLite answers at once: the count is part of the shell (src/render/deferred.ts).
    const app = useApp({ countRegistrations: () => Promise.resolve(4) });

    for (const javaScript of [false, true]) {
      it(`shows the count itself, never the fallback, with JavaScript ${javaScript ? 'on' : 'off'}`, () =>
        withPage(suite.browser, { javaScript }, async ({ page, errors }) => {
          await page.goto(`${app.url}/`, { waitUntil: 'load' });
          const visible = await page.$$eval('main p', (els) => els.filter((e) => e.checkVisibility() && /aanmelding/.test(e.textContent ?? '')).map((e) => e.textContent));
          assert.deepEqual(visible, ['Er zijn 4 aanmeldingen.']);
          assert.equal(await page.$$eval('template, [hidden]', (els) => els.length), 0, 'no pending boundary');
          // Eiland's own inline script on every page is the parse's wait for the stylesheet.
          const inline = await page.$$eval('script:not([src])', (els) => els.map((e) => e.textContent));
          assert.deepEqual(inline.filter((code) => code !== STYLESHEET_WAIT), [], 'no reveal script was sent');
          assert.deepEqual(errors, []);
        }));
    }
  });
});

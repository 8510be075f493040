import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { browserSuite, needsServer } from '../helpers/browser.js';
import { startApp, type TestApp } from '../helpers/app.js';

// A slow count, so the Suspense boundary really streams in after the shell.
const suite = browserSuite({ countRegistrations: () => new Promise((r) => setTimeout(() => r(3), 300)) });

const pages: Array<[path: string, title: string, h1: string, nav: string | null]> = [
  ['/', 'Start · Eiland', 'Welkom bij Eiland', 'Start'],
  ['/over', 'Over deze site · Eiland', 'Over deze site', 'Over deze site'],
  ['/voorwaarden', 'Voorwaarden · Eiland', 'Voorwaarden', null],
  ['/privacy', 'Privacyverklaring · Eiland', 'Privacyverklaring', null],
  ['/aanmelden', 'Aanmelden · Eiland', 'Aanmelden', 'Aanmelden'],
  ['/aanmelden/bedankt', 'Bedankt voor je aanmelding · Eiland', 'Bedankt voor je aanmelding', null],
];

for (const javaScript of [false, true]) {
  describe(`every page reads well in Chromium with JavaScript ${javaScript ? 'on' : 'off'}`, () => {
    for (const [path, title, h1, nav] of pages) {
      it(`${path}: title, heading, layout, navigation, no console errors${javaScript ? ', JavaScript only with islands' : ''}`, async () => {
        const { page, errors } = await suite.chromium.newPage({ javaScript });
        const scripts: string[] = [];
        page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
        try {
          await page.goto(suite.app.url + path, { waitUntil: 'load' });
          assert.equal(await page.title(), title);
          assert.equal(await page.$eval('h1', (e) => e.textContent), h1);
          assert.equal(await page.$eval('html', (e) => e.getAttribute('lang')), 'nl');
          const current = await page.$$eval('nav [aria-current="page"]', (els) => els.map((e) => e.textContent));
          assert.deepEqual(current, nav ? [nav] : []);
          assert.deepEqual(
            await page.$$eval('footer a', (els) => els.map((e) => e.textContent)),
            ['Privacyverklaring', 'Voorwaarden'],
          );
          // Stylesheet applied (CSP allows it), favicon served: no console errors at all.
          assert.equal(await page.$eval('.skip-link', (e) => getComputedStyle(e).position), 'absolute');
          assert.deepEqual(errors, []);
          if (javaScript && path !== '/aanmelden') {
            assert.deepEqual(scripts.map((u) => new URL(u).pathname), [(await suite.manifest()).router.file], 'only the router: no React, no runtime');
          }
          if (javaScript && path === '/aanmelden') {
            await page.waitForSelector('[data-hydrated="true"]', { timeout: 5000 });
            assert.ok(scripts.some((u) => /RegistrationForm-/.test(u)));
            assert.deepEqual(errors, [], 'no hydration warning');
          }
        } finally {
          await page.close();
        }
      });
    }

    it('the skip link is the first stop and leads to the content', async () => {
      const { page } = await suite.chromium.newPage({ javaScript });
      try {
        await page.goto(`${suite.app.url}/over`);
        await page.keyboard.press('Tab');
        assert.equal(await page.evaluate('document.activeElement.textContent'), 'Naar de inhoud');
        await page.keyboard.press('Enter');
        await page.waitForFunction('location.hash === "#inhoud"');
      } finally {
        await page.close();
      }
    });

    it('shows the error page of an unknown path', async () => {
      const { page } = await suite.chromium.newPage({ javaScript });
      try {
        const res = await page.goto(`${suite.app.url}/bestaat-niet`);
        assert.equal(res?.status(), 404);
        assert.equal(await page.title(), '404: This page could not be found');
        assert.equal(await page.$eval('h2', (e) => `${e.getAttribute('lang')}:${e.textContent}`), 'en:This page could not be found');
      } finally {
        await page.close();
      }
    });
  });
}

describe('the start page streams its count', { skip: needsServer('a slow registration count') }, () => {
  it('with JavaScript on, the count replaces the fallback (React reveal script allowed by the nonce)', async () => {
    const { page, errors } = await suite.chromium.newPage({ javaScript: true });
    try {
      await page.goto(`${suite.app.url}/`);
      // By its text: the count's paragraph under the "Aanmeldingen" heading.
      // Visible: until React reveals it, the streamed count waits in a hidden element.
      await page.waitForSelector('::-p-text(Er zijn 3 aanmeldingen.)', { timeout: 5000, visible: true });
      await page.waitForFunction('!document.querySelector("main").innerText.includes("nog niet bekend")', { timeout: 2000 });
      assert.deepEqual(errors, [], 'no CSP violation');
    } finally {
      await page.close();
    }
  });

  it('with JavaScript off, the fallback reads well on its own', async () => {
    const { page } = await suite.chromium.newPage({ javaScript: false });
    try {
      await page.goto(`${suite.app.url}/`);
      const visible = await page.$$eval('main p', (els) => els.filter((e) => e.checkVisibility() && /aanmeldingen/.test(e.textContent ?? '')).map((e) => e.textContent));
      assert.deepEqual(visible, ['Het aantal aanmeldingen is nog niet bekend.']);
    } finally {
      await page.close();
    }
  });
});

describe('layout', () => {
  it('is usable at 320 px wide: nothing scrolls sideways', async () => {
    const { page } = await suite.chromium.newPage({ width: 320 });
    try {
      for (const [path] of pages) {
        await page.goto(suite.app.url + path);
        const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
        assert.equal(overflow, 0, path);
      }
    } finally {
      await page.close();
    }
  });

  it('follows the dark colour scheme', async () => {
    const { page } = await suite.chromium.newPage();
    try {
      await page.goto(`${suite.app.url}/over`);
      const light = await page.evaluate('getComputedStyle(document.body).backgroundColor');
      await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
      const dark = await page.evaluate('getComputedStyle(document.body).backgroundColor');
      assert.equal(light, 'rgb(255, 255, 255)');
      assert.equal(dark, 'rgb(13, 17, 23)');
    } finally {
      await page.close();
    }
  });
});

describe('the start page with a count known at once', { skip: needsServer('a count known at once') }, () => {
  // SQLite answers at once: the count is part of the shell (src/render/deferred.ts).
  let app: TestApp;
  before(async () => (app = await startApp({ countRegistrations: () => Promise.resolve(4) })));
  after(() => app?.close());

  for (const javaScript of [false, true]) {
    it(`shows the count itself, never the fallback, with JavaScript ${javaScript ? 'on' : 'off'}`, async () => {
      const { page, errors } = await suite.chromium.newPage({ javaScript });
      try {
        await page.goto(`${app.url}/`, { waitUntil: 'load' });
        const visible = await page.$$eval('main p', (els) => els.filter((e) => e.checkVisibility() && /aanmelding/.test(e.textContent ?? '')).map((e) => e.textContent));
        assert.deepEqual(visible, ['Er zijn 4 aanmeldingen.']);
        assert.equal(await page.$$eval('template, [hidden]', (els) => els.length), 0, 'no pending boundary');
        assert.equal(await page.$$eval('script:not([src])', (els) => els.length), 0, 'no reveal script was sent');
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });
  }
});

/**
 * The client router, in each browser of `E2E_BROWSERS` (docs/navigation.md, docs/qa-kit.md §6): navigation without a document load, page
 * data retries and failures, island assets on demand within 3800 ms, prefetching, the router and
 * the parse of a page, and HTML and page data that never mix.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { PredefinedNetworkConditions, type HTTPRequest, type Page } from 'puppeteer-core';
import { productionAssets } from '../../src/assets/source.js';
import { APPLICATION_ERROR } from '../../protocol/client-errors.js';
import type { BuildManifest } from '../../protocol/manifest.js';
import { ANNOUNCER_ID, PREFETCH_ATTRIBUTE, PREFETCH_VIEWPORT, RELOAD_ATTRIBUTE } from '../../protocol/navigation.js';
import { testBuild } from '../fixtures/island-routes.js';
import { waitFor, withApp } from '../helpers/app.js';
import { browserSuite, countReactStarts, eachBrowser, needsServer, reactStarts, skipIn, watchRequests, withPage, type TestPage } from '../helpers/browser-suite.js';
import { hydrateIsland, type PageOptions } from './kit.js';

eachBrowser((browser) => {
  const suite = browserSuite({}, browser);
  let manifest: BuildManifest;
  before(async () => {
    manifest = await suite.manifest();
  });
  const ROUTE_TIMEOUT = 'Route did not complete loading';

  const isData = (r: HTTPRequest) => r.headers()['x-eiland-data'] === '1';
  const pathOf = (r: HTTPRequest) => new URL(r.url()).pathname;

  /** What a page asked the server for, in order. */
  interface Traffic {
    /** Paths of page-data requests. */
    data: string[];
    /** Paths of document (full page) requests. */
    documents: string[];
  }

  /** How {@link withTraffic} opens its page. */
  interface Opening {
    /** The path first loaded. */
    start: string;
    /** May answer a request itself (resolving true); else the request goes through. */
    fault?: (r: HTTPRequest) => boolean | Promise<boolean>;
    options?: PageOptions;
    /** Prepares the page before its first load. */
    prepare?: (page: Page) => Promise<void>;
  }

  /**
   * Opens `start` in a page with interception, recording its traffic, and runs a step with it
   * (withPage: the page is closed however the step ends). The page gets a marker that a full load
   * would erase.
   */
  function withTraffic(opening: Opening, step: (tab: TestPage & { traffic: Traffic }) => Promise<void>): Promise<void> {
    const { start, fault = () => false, options = {}, prepare } = opening;
    return withPage(suite.browser, options, async (tab) => {
      await prepare?.(tab.page);
      const traffic: Traffic = { data: [], documents: [] };
      await tab.page.setRequestInterception(true);
      tab.page.on('request', (r) => {
        void (async () => {
          if (isData(r)) traffic.data.push(pathOf(r));
          // A navigation, not resourceType() === 'document': Firefox over WebDriver BiDi has no resource types.
          if (r.isNavigationRequest()) traffic.documents.push(pathOf(r));
          if (!(await fault(r))) await r.continue();
        })();
      });
      await tab.page.goto(suite.app.url + start);
      await tab.page.evaluate('window.zelfdeDocument = true');
      await step({ ...tab, traffic });
    });
  }

  /** Clicks a link without moving the mouse (no hover prefetch). */
  async function follow(page: Page, href: string): Promise<void> {
    await page.evaluate(`(() => {
      let a = document.querySelector('a[href="${href}"]');
      if (!a) { a = document.createElement('a'); a.href = '${href}'; a.textContent = 'proef'; document.querySelector('main').append(a); }
      a.click();
    })()`);
  }

  const sameDocument = (page: Page) => page.evaluate('window.zelfdeDocument === true');

  /** Waits for a full document load (the marker set by withTraffic is gone). */
  const fullLoad = (page: Page, timeout = 5000) =>
    page.waitForFunction('window.zelfdeDocument === undefined && document.readyState === "complete"', { timeout });
  const respond = (r: HTTPRequest, status: number, body = '', headers: Record<string, string> = {}) =>
    r.respond({ status, body, headers, contentType: headers['content-type'] ?? 'text/plain' }).then(() => true);

  describe('navigation without a document load (docs/navigation.md §2–§3)', () => {
    it('swaps <main>, sets the title and description, pushes history, focuses the <h1>, announces, updates aria-current', () =>
      withTraffic({ start: '/' }, async ({ page, errors, traffic }) => {
        const before = Number(await page.evaluate('history.length'));
        await follow(page, '/over');
        await page.waitForFunction('document.title === "Over deze site · Eiland"', { timeout: 5000 });
        assert.equal(await sameDocument(page), true);
        assert.deepEqual(
          await page.$$eval('meta[name="description"]', (els) => els.map((e) => e.getAttribute('content'))),
          ['Waarom Eiland zo snel is, waarom het ook zonder JavaScript werkt en hoe je de site met alleen het toetsenbord bedient.'],
        );
        assert.equal(new URL(page.url()).pathname, '/over');
        assert.equal(await page.evaluate('history.length'), before + 1);
        assert.equal(await page.evaluate('document.activeElement.tagName + ":" + document.activeElement.textContent'), 'H1:Over deze site');
        assert.equal(await page.$eval(`#${ANNOUNCER_ID}`, (e) => e.textContent), 'Over deze site · Eiland');
        assert.deepEqual(await page.$$eval('nav [aria-current="page"]', (els) => els.map((e) => e.textContent)), ['Over deze site']);
        assert.deepEqual(traffic.documents, ['/']);
        assert.deepEqual(errors, []);
      }));

    it('goes back and forward without pushing, restoring the scroll position', () =>
      withTraffic({ start: '/privacy', options: { width: 1024 } }, async ({ page, traffic }) => {
        await page.setViewport({ width: 1024, height: 300 });
        await page.evaluate('scrollTo(0, 250)');
        // The router saves the position in the history entry's state, 100 ms after the scroll.
        await page.waitForFunction('history.state?.scroll?.[1] === 250', { timeout: 3000 });
        await follow(page, '/voorwaarden');
        await page.waitForFunction('document.title === "Voorwaarden · Eiland"', { timeout: 5000 });
        assert.equal(await page.evaluate('scrollY'), 0);
        const length = await page.evaluate('history.length');
        await page.goBack({ waitUntil: 'domcontentloaded' }).catch(() => undefined);
        await page.waitForFunction('document.title === "Privacyverklaring · Eiland"', { timeout: 5000 });
        await page.waitForFunction('scrollY === 250', { timeout: 3000 });
        await page.goForward({ waitUntil: 'domcontentloaded' }).catch(() => undefined);
        await page.waitForFunction('document.title === "Voorwaarden · Eiland"', { timeout: 5000 });
        assert.equal(await page.evaluate('history.length'), length);
        assert.equal(await sameDocument(page), true);
        assert.deepEqual(traffic.documents, ['/privacy']);
      }));

    it('keeps the hash of the target and scrolls its element into view', () =>
      withTraffic({ start: '/over' }, async ({ page }) => {
        await page.setViewport({ width: 1024, height: 300 });
        await follow(page, `/privacy#${ANNOUNCER_ID}`);
        await page.waitForFunction('document.title === "Privacyverklaring · Eiland"', { timeout: 5000 });
        assert.equal(await page.evaluate('location.pathname + location.hash'), `/privacy#${ANNOUNCER_ID}`);
        assert.ok(Number(await page.evaluate('scrollY')) > 0, 'scrolled to the element near the bottom');
        assert.equal(await sameDocument(page), true);
      }));

    it('leaves in-page anchors, modified clicks, target and data-reload links to the browser', () =>
      withTraffic({ start: '/over' }, async ({ page, traffic }) => {
        await page.evaluate(`document.querySelector('main').insertAdjacentHTML('beforeend',
          '<a id="herlaad" href="/privacy" ${RELOAD_ATTRIBUTE}>herladen</a>')`);
        await page.focus('::-p-aria(Naar de inhoud[role="link"])');
        await page.keyboard.press('Enter');
        await page.waitForFunction('location.hash === "#inhoud"');
        assert.deepEqual(traffic.data, []);
        await page.click('#herlaad');
        await fullLoad(page);
        assert.deepEqual(traffic.documents, ['/over', '/privacy']);
        assert.deepEqual(traffic.data, []);
      }));
  });

  describe('page data retries and failures (docs/navigation.md §3–§4)', () => {
    it('an ssr route answering 502, 503, then 200 takes exactly 3 data requests and renders', async () => {
      const answers = [502, 503];
      await withTraffic({ start: '/over', fault: (r) => (isData(r) && pathOf(r) === '/' && answers.length > 0 ? respond(r, answers.shift()!) : false) }, async ({ page, traffic }) => {
        await follow(page, '/');
        await page.waitForFunction('document.title === "Start · Eiland"', { timeout: 5000 });
        assert.deepEqual(traffic.data, ['/', '/', '/']);
        assert.equal(await sameDocument(page), true);
      });
    });

    it('an ssr route answering 500 three times → a full document load of the target', () =>
      withTraffic({ start: '/over', fault: (r) => (isData(r) && pathOf(r) === '/' ? respond(r, 500) : false) }, async ({ page, traffic }) => {
        await follow(page, '/');
        await fullLoad(page);
        assert.deepEqual(traffic.data, ['/', '/', '/']);
        assert.deepEqual(traffic.documents, ['/over', '/']);
        assert.equal(await page.title(), 'Start · Eiland');
      }));

    it('a static route answering 500 → exactly 1 data request, then a full load', () =>
      withTraffic({ start: '/', fault: (r) => (isData(r) && pathOf(r) === '/voorwaarden' ? respond(r, 500) : false) }, async ({ page, traffic }) => {
        await follow(page, '/voorwaarden');
        await fullLoad(page);
        assert.deepEqual(traffic.data, ['/voorwaarden']);
        assert.deepEqual(traffic.documents, ['/', '/voorwaarden']);
      }));

    const failures: Array<[what: string, fault: (r: HTTPRequest) => Promise<boolean>]> = [
      ['a network abort', (r) => r.abort('failed').then(() => true)],
      ['an answer without the marker', (r) => respond(r, 200, '{}', { 'content-type': 'application/json' })],
      ['bad JSON', (r) => respond(r, 200, '{kapot', { 'content-type': 'application/json', 'x-eiland-data': '1' })],
      ['another build id', (r) => respond(r, 200, JSON.stringify({ buildId: 'ander', html: '' }), { 'content-type': 'application/json', 'x-eiland-data': '1' })],
    ];
    for (const [what, fault] of failures) {
      it(`${what} → a full load of the target, never a loop`, () =>
        withTraffic({ start: '/over', fault: (r) => (isData(r) ? fault(r) : Promise.resolve(false)) }, async ({ page, traffic }) => {
          await follow(page, '/privacy');
          await fullLoad(page);
          const requests = watchRequests(page);
          assert.equal(await page.title(), 'Privacyverklaring · Eiland');
          // A loop would be the loaded page leaving again: its router has run, and the page has
          // been idle since with nothing under way.
          await page.waitForFunction('history.scrollRestoration === "manual"', { timeout: 5000 });
          await requests.settled();
          assert.deepEqual(traffic.documents, ['/over', '/privacy']);
        }));
    }

    it('a data request that hangs → a full load after about 3.8 s', () =>
      // Page-data requests are held, never answered.
      withTraffic({ start: '/over', fault: (r) => isData(r) }, async ({ page, traffic }) => {
        const started = Date.now();
        await follow(page, '/privacy');
        await fullLoad(page, 6000);
        const elapsed = Date.now() - started;
        assert.ok(elapsed >= 3700 && elapsed < 6000, `${elapsed} ms`);
        assert.deepEqual(traffic.documents, ['/over', '/privacy']);
      }));

    it('a 404 with the marker shows the error page in place, with its title and no description, without a reload', () =>
      withTraffic({ start: '/over' }, async ({ page, traffic }) => {
        await follow(page, '/bestaat-niet');
        await page.waitForFunction('document.title === "404: This page could not be found"', { timeout: 5000 });
        assert.equal(await page.$('meta[name="description"]'), null, 'an error page has no description');
        assert.equal(await page.$eval('main h1', (e) => e.textContent), '404');
        assert.equal(await page.$eval('main h2', (e) => e.textContent), 'This page could not be found');
        assert.equal(await sameDocument(page), true);
        assert.deepEqual(traffic.documents, ['/over']);
      }));

    it('an uncaught router exception shows the Application error in place of <main>', { skip: needsServer("the server's logs") }, async () => {
      const broken = JSON.stringify({ buildId: manifest.buildId, route: '/privacy', kind: 'static', status: 200, title: 'x', props: {}, html: '<h1>x</h1>', islands: null, assets: [] });
      await withTraffic({ start: '/over', fault: (r) => (isData(r) ? respond(r, 200, broken, { 'content-type': 'application/json', 'x-eiland-data': '1' }) : Promise.resolve(false)) }, async ({ page, errors }) => {
        await follow(page, '/privacy');
        await page.waitForSelector('main [role="alert"]', { timeout: 5000 });
        assert.equal(await page.$eval('main [role="alert"]', (e) => `${e.getAttribute('lang')}:${e.textContent}`), `en:${APPLICATION_ERROR}`);
        assert.ok(errors.some((e) => /TypeError/.test(e)), errors.join(' | '));
        await waitFor(() => suite.local.logs().some((l) => l.event === 'client_error' && l.island === undefined && l.page === '/over'));
      });
    });
  });

  describe('assets on demand within 3800 ms (docs/navigation.md §3)', () => {
    const islandChunk = (r: HTTPRequest) => pathOf(r) === manifest.islands.RegistrationForm!.file;

    it('an island chunk delayed 5 s → "Route did not complete loading", then a full load after about 3.8 s', async () => {
      let held = true;
      await withTraffic({ start: '/over', fault: async (r) => {
        if (!islandChunk(r) || !held) return false;
        held = false;
        setTimeout(() => void r.continue().catch(() => undefined), 5000);
        return true;
      } }, async ({ page, errors, traffic }) => {
        const started = Date.now();
        await follow(page, '/aanmelden');
        await fullLoad(page, 6000);
        const elapsed = Date.now() - started;
        assert.ok(elapsed >= 3700 && elapsed < 6000, `${elapsed} ms`);
        assert.ok(errors.includes(ROUTE_TIMEOUT), errors.join(' | '));
        assert.deepEqual(traffic.documents, ['/over', '/aanmelden']);
      });
    });

    it('a 404 island chunk → a full load', async () => {
      let first = true;
      await withTraffic({ start: '/over', fault: (r) => {
        if (!islandChunk(r) || !first) return false;
        first = false;
        return respond(r, 404);
      } }, async ({ page, traffic }) => {
        await follow(page, '/aanmelden');
        await fullLoad(page, 6000);
        assert.deepEqual(traffic.documents, ['/over', '/aanmelden']);
        await hydrateIsland(page, 'RegistrationForm');
      });
    });

    it('a page with islands reached by the router runs no React until its form is used, then hydrates it', () =>
      withTraffic({ start: '/over', prepare: countReactStarts }, async ({ page, errors }) => {
        await follow(page, '/aanmelden');
        await page.waitForSelector('[data-island="RegistrationForm"][data-hydrated="pending"]', { timeout: 5000 });
        assert.equal(await reactStarts(page), 0);
        await hydrateIsland(page, 'RegistrationForm');
        assert.equal(await reactStarts(page), 1);
        assert.equal(await sameDocument(page), true);
        await page.click('button[type="submit"]');
        await page.waitForFunction('document.activeElement?.id === "foutoverzicht"', { timeout: 3000 });
        assert.deepEqual(errors, []);
      }));
  });

  describe('prefetching (docs/navigation.md §6)', () => {
    /** Hovers the same links twice on `/` of the app at `base` (default: the suite's). */
    async function hoverTraffic(setup: (page: Page) => Promise<void>, base = suite.app.url): Promise<Traffic & { other: string[] }> {
      return withPage(suite.browser, {}, async ({ page }) => {
        const traffic = { data: [] as string[], documents: [] as string[], other: [] as string[] };
        await setup(page);
        await page.goto(`${base}/`);
        const requests = watchRequests(page);
        page.on('request', (r) => {
          if (isData(r)) traffic.data.push(pathOf(r));
          else traffic.other.push(pathOf(r));
        });
        for (let i = 0; i < 2; i++) {
          await page.hover('nav a[href="/over"]');
          await page.hover('nav a[href="/aanmelden"]');
          await page.hover('footer a[href="/privacy"]');
        }
        // A prefetch begins in the hover's handler and asks for the rest once the manifest is in.
        await requests.settled();
        return traffic;
      });
    }

    it('on hover: page data of static routes once per URL, the assets of every route', async () => {
      const traffic = await hoverTraffic(async () => undefined);
      assert.deepEqual(traffic.data.sort(), ['/over', '/privacy']);
      assert.ok(traffic.other.includes(manifest.islands.RegistrationForm!.file), traffic.other.join(' '));
      assert.ok(traffic.other.includes(manifest.runtime.file));
    });

    it('uses the prefetched data: a click on a hovered static link asks nothing more', () =>
      withTraffic({ start: '/' }, async ({ page, traffic }) => {
        await page.hover('nav a[href="/over"]');
        await waitFor(() => traffic.data.length === 1);
        await page.click('nav a[href="/over"]');
        await page.waitForFunction('document.title === "Over deze site · Eiland"', { timeout: 5000 });
        assert.deepEqual(traffic.data, ['/over']);
      }));

    const noConnection = skipIn(browser, 'firefox', 'has no navigator.connection (Network Information API) to ask');
    const skipped: Array<[what: string, setup: (page: Page) => Promise<void>, skip?: string | false]> = [
      ['saveData', (page) => page.evaluateOnNewDocument("Object.defineProperty(NetworkInformation.prototype, 'saveData', { configurable: true, get: () => true })").then(() => undefined), noConnection],
      ['Slow 3G (effectiveType 2g)', (page) => page.emulateNetworkConditions(PredefinedNetworkConditions['Slow 3G']), noConnection],
      ['a Googlebot user agent', (page) => page.setUserAgent({ userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' })],
      ['a WhatsApp user agent', (page) => page.setUserAgent({ userAgent: 'WhatsApp/2.23.20.0 A' })],
    ];
    for (const [what, setup, skip = false] of skipped) {
      it(`nothing with ${what}`, { skip }, async () => {
        const traffic = await hoverTraffic(setup);
        assert.deepEqual(traffic.data, []);
        assert.deepEqual(traffic.other.filter((p) => p.startsWith('/assets/')), []);
      });
    }

    it('nothing in development', { skip: needsServer('a development build of its own') }, async () => {
      const build = await testBuild({ development: true });
      try {
        await withApp({ assets: productionAssets(build.dir) }, async (app) => {
          const traffic = await hoverTraffic(async () => undefined, app.url);
          assert.deepEqual(traffic.data, []);
          assert.deepEqual(traffic.other.filter((p) => p.startsWith('/assets/')), []);
        });
      } finally {
        await build.remove();
      }
    });

    it('prefetches a link marked data-prefetch="viewport" when it scrolls into view, not before', async () => {
      const real = (await (await fetch(`${suite.app.url}/voorwaarden`, { headers: { 'X-Eiland-Data': '1' } })).json()) as { html: string };
      const html = `${real.html}${'<p>ruimte</p>'.repeat(150)}<p><a ${PREFETCH_ATTRIBUTE}="${PREFETCH_VIEWPORT}" href="/privacy">privacy</a></p>`;
      await withTraffic({ start: '/over', fault: (r) =>
        isData(r) && pathOf(r) === '/voorwaarden' ? respond(r, 200, JSON.stringify({ ...real, html }), { 'content-type': 'application/json', 'x-eiland-data': '1' }) : false,
       }, async ({ page, traffic }) => {
        const requests = watchRequests(page);
        await follow(page, '/voorwaarden');
        await page.waitForFunction('document.title === "Voorwaarden · Eiland"', { timeout: 5000 });
        // The link is watched once the page is shown; its first intersection comes with a frame.
        await requests.settled();
        assert.deepEqual(traffic.data, ['/voorwaarden']);
        await page.evaluate(`document.querySelector('a[${PREFETCH_ATTRIBUTE}="${PREFETCH_VIEWPORT}"]').scrollIntoView()`);
        await waitFor(() => traffic.data.includes('/privacy'));
      });
    });
  });

  describe('the router and the parse of a page (docs/navigation.md §2, docs/performance.md §7)', () => {
    const later = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const timing = (page: Page) =>
      page.evaluate(`(() => {
        const end = (path) => performance.getEntriesByName(new URL(path, location.href).href)[0]?.responseEnd;
        return { parsed: performance.getEntriesByType('navigation')[0].domContentLoadedEventStart, styles: end(${JSON.stringify(manifest.styles)}), router: end(${JSON.stringify(manifest.router.file)}) };
      })()`) as Promise<{ parsed: number; styles: number; router: number }>;

    it('ends the parse once the stylesheet is there, without waiting for the router, which takes over when it arrives', () =>
      withTraffic({ start: '/aanmelden', fault: async (r) => {
        const path = pathOf(r);
        if (path === manifest.styles) await later(500);
        if (path === manifest.router.file) await later(1500);
        return false;
      } }, async ({ page, traffic, errors }) => {
        const { parsed, styles, router } = await timing(page);
        assert.ok(parsed >= styles, `DOMContentLoaded at ${parsed} ms, the stylesheet at ${styles} ms`);
        assert.ok(parsed < router, `DOMContentLoaded at ${parsed} ms, the router at ${router} ms`);
        await page.waitForFunction('history.scrollRestoration === "manual"', { timeout: 5000 });
        await follow(page, '/over');
        await page.waitForFunction('document.title === "Over deze site · Eiland"', { timeout: 5000 });
        assert.equal(await sameDocument(page), true);
        assert.deepEqual(traffic.documents, ['/aanmelden']);
        assert.deepEqual(errors, []);
      }));

    it('starts its work once the page is parsed when it arrives before: a link after its script is watched', () => {
      let routerLoaded = () => undefined as void;
      const routerThere = new Promise<void>((resolve) => (routerLoaded = resolve));
      let tab: Page | undefined;
      /** Resolves once the router has run in the page: it takes scroll restoration at once. */
      const routerRan = () => routerThere.then(() => waitFor(async () => (await tab!.evaluate('history.scrollRestoration').catch(() => undefined)) === 'manual', 5000));
      return withTraffic({ start: '/over', prepare: async (page) => {
        tab = page;
        // Whether the router had run (it takes scroll restoration at once) when the parse ended.
        await page.evaluateOnNewDocument(`document.addEventListener('DOMContentLoaded', () => { window.routerBeforeParsed = history.scrollRestoration === 'manual'; }, { capture: true, once: true })`);
        page.on('requestfinished', (r) => pathOf(r) === manifest.router.file && routerLoaded());
      }, fault: async (r) => {
        if (r.isNavigationRequest()) {
          // The page as the browser asks for it, with a link to watch after everything else.
          const real = await fetch(r.url(), { headers: { 'User-Agent': r.headers()['user-agent']! } });
          const headers = Object.fromEntries([...real.headers].filter(([name]) => !['content-encoding', 'content-length', 'transfer-encoding'].includes(name)));
          const html = (await real.text()).replace('</body>', `<p><a ${PREFETCH_ATTRIBUTE}="${PREFETCH_VIEWPORT}" href="/privacy">privacy</a></p></body>`);
          return respond(r, 200, html, headers);
        }
        // The stylesheet, and with it the end of the parse, held until the router has run (5 s at most).
        if (pathOf(r) === manifest.styles) await Promise.race([routerRan().catch(() => undefined), later(5000)]);
        return false;
      } }, async ({ page, traffic, errors }) => {
        assert.equal(await page.evaluate('window.routerBeforeParsed'), true, 'the router ran before the parse ended');
        await page.evaluate(`document.querySelector('a[${PREFETCH_ATTRIBUTE}="${PREFETCH_VIEWPORT}"]').scrollIntoView()`);
        await waitFor(() => traffic.data.includes('/privacy'));
        assert.deepEqual(errors, []);
      });
    });
  });

  describe('HTML and page data never mix (docs/navigation.md §1)', () => {
    it('after a client navigation, back and a reload show HTML, never JSON', () =>
      withTraffic({ start: '/' }, async ({ page }) => {
        await follow(page, '/over');
        await page.waitForFunction('document.title === "Over deze site · Eiland"', { timeout: 5000 });
        const reloaded = await page.reload();
        assert.match(String(reloaded?.headers()['content-type']), /^text\/html/);
        assert.equal(await page.$eval('h1', (e) => e.textContent), 'Over deze site');
        await page.goBack();
        await page.waitForFunction('document.title === "Start · Eiland"', { timeout: 5000 });
        assert.doesNotMatch(String(await page.content()), /"buildId"/);
        assert.equal(await page.$eval('h1', (e) => e.textContent), 'Welkom bij Eiland');
      }));
  });
});

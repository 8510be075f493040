/**
 * The project's browser suites, on the QA kit (test/e2e/kit.ts): Chromium or Firefox presenting
 * as a person's browser, console messages collected per page, and the app under test — started
 * here on port 0, or the instance at `BASE_URL` (then tests that need the server's insides skip).
 */
import { after, before } from 'node:test';
import type { HTTPRequest, Page } from 'puppeteer-core';
import type { BuildManifest } from '../../protocol/manifest.js';
import { BASE_URL, collectProblems, launchNamed, manifestOf, openPage, type BrowserName, type LaunchedBrowser, type PageOptions } from '../e2e/kit.js';
import { startApp, type TestApp, type TestAppOptions } from './app.js';
import { waitFor } from './wait.js';
import { testManifest } from './test-dist.js';

export { eachBrowser, e2eBrowsers, skipIn } from './e2e-browsers.js';

/** A launched browser that removes its profile on close. */
export interface TestBrowser {
  /** The browser pages open in (with JavaScript on). */
  browser: LaunchedBrowser['browser'];
  /** Which browser it is. */
  name: BrowserName;
  /** A new page; `javaScript: false` for the no-JS runs (other kit emulations too). */
  newPage(options?: PageOptions): Promise<TestPage>;
  close(): Promise<void>;
}

/** A page with every console message and uncaught error it saw. */
export interface TestPage {
  page: Page;
  /** console.error texts and uncaught page errors. */
  errors: string[];
  /** Every console message of any level (`type: text`) and uncaught page error. */
  messages: string[];
}

/**
 * Launches a headless browser presenting as a person's (the kit's `launchChromium` or
 * `launchFirefox`; docs/qa-kit.md §7).
 * @param options `browser`: `chromium` (the default) or `firefox`. Firefox switches JavaScript off
 *   per browser, not per page: the first page opened with `javaScript: false` launches a second
 *   Firefox with the `javascript.enabled` preference off, and every no-JS page opens there.
 * @returns the browser; `close()` closes every browser it launched
 * @throws Error from puppeteer when the binary is missing; from `newPage`, an Error naming what
 *   Firefox lacks for an emulation it cannot do (the kit's `unsupportedOptions`)
 */
export async function launchBrowser(options: { browser?: BrowserName } = {}): Promise<TestBrowser> {
  const name = options.browser ?? 'chromium';
  const withScripts = await launchNamed(name);
  let withoutScripts: Promise<LaunchedBrowser> | undefined;
  const launchedFor = (javaScript: boolean): Promise<LaunchedBrowser> => {
    if (name === 'chromium' || javaScript) return Promise.resolve(withScripts);
    withoutScripts ??= launchNamed(name, { javaScript: false });
    return withoutScripts;
  };
  return {
    browser: withScripts.browser,
    name,
    async newPage(pageOptions = {}) {
      const page = await openPage(await launchedFor(pageOptions.javaScript ?? true), undefined, pageOptions);
      const { errors, messages } = await collectProblems(page);
      return { page, errors, messages };
    },
    async close() {
      await withScripts.close();
      await (await withoutScripts)?.close();
    },
  };
}

/**
 * Opens a page with the kit's emulation, runs a step with it, and closes the page however the
 * step ends.
 * @param chromium the browser, e.g. `suite.browser`
 * @param options the page's emulation (see `PageOptions`; `{}` for a person's browser at 1024 px)
 * @param step gets the page and the console errors it collects
 * @returns what the step returns
 * @throws what the step throws (after the page is closed)
 * @example await withPage(suite.chromium, { javaScript: false }, async ({ page, errors }) => { … })
 */
export async function withPage<T>(chromium: TestBrowser, options: PageOptions, step: (tab: TestPage) => Promise<T>): Promise<T> {
  const tab = await chromium.newPage(options);
  try {
    return await step(tab);
  } finally {
    await tab.page.close();
  }
}

/** The app a browser suite drives: only `url` when it runs elsewhere (`BASE_URL`). */
type SuiteApp = Pick<TestApp, 'url'> & Partial<Omit<TestApp, 'url'>>;

/** The app and browser of a browser suite, valid inside its tests. */
export interface BrowserSuite {
  readonly app: SuiteApp;
  /** The app started here, with its logs and storage; throws against `BASE_URL`. */
  readonly local: TestApp;
  /** The browser of the suite. */
  readonly browser: TestBrowser;
  /** The same browser, under the name the Chromium-only suites use. */
  readonly chromium: TestBrowser;
  /** The build the app serves: the local `dist/manifest.json`, or the one `BASE_URL` serves. */
  manifest(): Promise<BuildManifest>;
}

/**
 * Why a test cannot run against `BASE_URL`, for `it(name, { skip: needsServer('its logs') })`.
 * @param what the inside it needs, e.g. `the server's logs`
 * @returns false when the suite starts its own app; else the reason the test is skipped
 */
export function needsServer(what: string): string | false {
  return BASE_URL ? `needs ${what}, which a test against BASE_URL (${BASE_URL}) cannot reach` : false;
}

/**
 * Registers `before`/`after` hooks that start the app (on a fresh database unless
 * `options.storage`) — or use `BASE_URL` — and a browser, and close both afterwards.
 * @param options createApp options, or a function giving them (run in `before`); ignored
 *   against `BASE_URL`
 * @param browser the browser to launch (default `chromium`; inside {@link eachBrowser}, the one it gives)
 */
export function browserSuite(options: TestAppOptions | (() => Promise<TestAppOptions>) = {}, browser: BrowserName = 'chromium'): BrowserSuite {
  let app: TestApp | undefined;
  let chromium: TestBrowser | undefined;
  before(async () => {
    if (!BASE_URL) app = await startApp(typeof options === 'function' ? await options() : options);
    chromium = await launchBrowser({ browser });
  });
  after(async () => {
    await chromium?.close();
    await app?.close();
  });
  return {
    get app() {
      return app ?? { url: BASE_URL! };
    },
    get local() {
      if (!app) throw new Error(`This test needs the app started by the suite, not ${BASE_URL}: skip it with needsServer()`);
      return app;
    },
    get browser() {
      return chromium!;
    },
    get chromium() {
      return chromium!;
    },
    manifest: async () => (BASE_URL ? manifestOf(BASE_URL) : testManifest()),
  };
}

/**
 * Counts React DOM's start-ups in a page from now on: evaluating react-dom's module registers it
 * with a developer-tools hook when the page has one (as React DevTools installs it), so this
 * installs one in every new document that only counts. Read the count with {@link reactStarts}.
 * @param page a page not yet navigated to the documents to watch
 */
export async function countReactStarts(page: Page): Promise<void> {
  await page.evaluateOnNewDocument(
    `window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = { supportsFiber: true, isDisabled: false, inject() { window.reactStarts = (window.reactStarts || 0) + 1; return window.reactStarts; }, onCommitFiberRoot() {}, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {}, setStrictMode() {} };`,
  );
}

/** How often react-dom's module was evaluated in the current document (see {@link countReactStarts}). */
export async function reactStarts(page: Page): Promise<number> {
  return Number(await page.evaluate('window.reactStarts || 0'));
}

/**
 * Resolves once the page has rendered two frames and then been idle, so the work its last events
 * began (intersection observers' callbacks, tasks and promise chains queued, the requests those
 * start) has run: the bound of a test that something does not happen.
 * @param page the page, its current document
 */
export async function pageSettled(page: Page): Promise<void> {
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => requestIdleCallback(() => resolve(true)))))');
}

/**
 * Watches the requests a page makes from now on.
 * @param page the page
 * @returns `settled()`: resolves once none of them is under way and the page has then settled
 *   ({@link pageSettled}) without asking for anything new, so what their answers would have led
 *   to has been asked too
 */
export function watchRequests(page: Page): { settled(): Promise<void> } {
  const open = new Set<HTTPRequest>();
  let asked = 0;
  page.on('request', (request) => {
    open.add(request);
    asked += 1;
  });
  page.on('requestfinished', (request) => open.delete(request));
  page.on('requestfailed', (request) => open.delete(request));
  return {
    async settled() {
      for (let before = -1; before !== asked; ) {
        before = asked;
        await waitFor(() => open.size === 0, 10_000);
        await pageSettled(page);
      }
    },
  };
}

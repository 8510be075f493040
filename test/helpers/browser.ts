/**
 * The project's browser suites, on the QA kit (test/e2e/kit.ts): Chromium presenting as a
 * person's browser, console errors collected per page, and the app under test — started here
 * on port 0, or the instance at `BASE_URL` (then tests that need the server's insides skip).
 */
import { after, before } from 'node:test';
import type { Page } from 'puppeteer-core';
import type { BuildManifest } from '../../protocol/manifest.js';
import { readManifest } from '../../src/assets/manifest.js';
import { BASE_URL, collectProblems, launchChromium, manifestOf, openPage, type Chromium, type PageOptions } from '../e2e/kit.js';
import { startApp, type TestApp, type TestAppOptions } from './app.js';

/** A launched browser that removes its profile on close. */
export interface TestBrowser {
  browser: Chromium['browser'];
  /** A new page; `javaScript: false` for the no-JS runs (other kit emulations too). */
  newPage(options?: PageOptions): Promise<TestPage>;
  close(): Promise<void>;
}

/** A page with every console error and failed request it saw. */
export interface TestPage {
  page: Page;
  /** console.error texts and uncaught page errors. */
  errors: string[];
}

/** Launches headless Chromium (the kit's `launchChromium`), presenting as a person's browser. */
export async function launchBrowser(): Promise<TestBrowser> {
  const chromium = await launchChromium();
  return {
    browser: chromium.browser,
    async newPage(options = {}) {
      const page = await openPage(chromium, undefined, options);
      const { errors } = await collectProblems(page);
      return { page, errors };
    },
    close: () => chromium.close(),
  };
}

/**
 * Opens a page with the kit's emulation, runs a step with it, and closes the page however the
 * step ends.
 * @param chromium the browser, e.g. `suite.chromium`
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
export type SuiteApp = Pick<TestApp, 'url'> & Partial<Omit<TestApp, 'url'>>;

/** The app and browser of a browser suite, valid inside its tests. */
export interface BrowserSuite {
  readonly app: SuiteApp;
  /** The app started here, with its logs and storage; throws against `BASE_URL`. */
  readonly local: TestApp;
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
 * `options.storage`) — or use `BASE_URL` — and Chromium, and close both afterwards.
 * @param options createApp options, or a function giving them (run in `before`); ignored
 *   against `BASE_URL`
 */
export function browserSuite(options: TestAppOptions | (() => Promise<TestAppOptions>) = {}): BrowserSuite {
  let app: TestApp | undefined;
  let chromium: TestBrowser | undefined;
  before(async () => {
    if (!BASE_URL) app = await startApp(typeof options === 'function' ? await options() : options);
    chromium = await launchBrowser();
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
    get chromium() {
      return chromium!;
    },
    manifest: async () => (BASE_URL ? manifestOf(BASE_URL) : readManifest('dist/manifest.json')),
  };
}

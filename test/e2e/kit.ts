/**
 * The QA kit: puppeteer helpers for driving Eiland in Debian's Chromium or Firefox ESR, locally
 * or against a deployed instance. The project's browser suite is built on it; a QA script of its
 * own imports it the same way:
 *
 *   import { launchChromium, openPage, collectProblems, requestIdOf } from './test/e2e/kit.js';
 *   const chromium = await launchChromium();
 *   const page = await openPage(chromium, 'https://eiland.example/aanmelden', { width: 320 });
 *
 * Selectors: by role and accessible name (`::-p-aria(Aanmelden[role="button"])`) or by label
 * (`#id` of the field a `<label for>` names); where a stable hook is needed, one of
 * {@link TEST_IDS}. Never CSS classes: they change with the design.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ISLAND_ATTRIBUTES as A } from '../../protocol/islands.js';
import type { BuildManifest } from '../../protocol/manifest.js';
import puppeteer, { PredefinedNetworkConditions, type Browser, type ConsoleMessage, type ElementHandle, type HTTPRequest, type JSHandle, type Page } from 'puppeteer-core';

/**
 * The `data-testid` hooks the site promises to keep (docs/qa-kit.md §4). Everything else is
 * found by role, label or text.
 */
export const TEST_IDS = {
  /** The development build-error overlay (`npm run dev` only). */
  buildOverlay: 'build-overlay',
} as const;

/** The instance under test: `BASE_URL` when set (no trailing slash), else undefined (start one). */
export const BASE_URL: string | undefined = process.env.BASE_URL?.replace(/\/+$/, '') || undefined;

/** The user agent of a well-known crawler, for bot mode. */
export const BOT_USER_AGENT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

/** Where {@link saveFailure} writes (git-ignored). */
export const ARTIFACTS_DIR = 'test-results';

/**
 * The build manifest an instance serves (named by `<meta name="eiland-manifest">` of its start
 * page): asset URLs, islands, routes and images of the deployed build, not of a local one.
 * @param baseUrl the instance, e.g. `http://127.0.0.1:3000`
 * @throws Error when the page names no manifest or it cannot be fetched
 */
export async function manifestOf(baseUrl: string): Promise<BuildManifest> {
  const html = await (await fetch(`${baseUrl}/`)).text();
  const url = /<meta name="eiland-manifest" content="([^"]+)"/.exec(html)?.[1];
  if (!url) throw new Error(`${baseUrl}/ names no build manifest`);
  const res = await fetch(baseUrl + url);
  if (!res.ok) throw new Error(`${baseUrl}${url}: ${res.status}`);
  return (await res.json()) as BuildManifest;
}

/** The browsers the kit drives: Debian's `chromium` (over CDP) and `firefox-esr` (over WebDriver BiDi). */
export type BrowserName = 'chromium' | 'firefox';

/** A launched browser with its throw-away profile. */
export interface LaunchedBrowser {
  browser: Browser;
  /** Which browser it is: some emulations exist in Chromium only (docs/qa-kit.md §7). */
  name: BrowserName;
  /** `person` (the default): the user agent of a person's browser; `bot`: a crawler's. */
  presents: 'person' | 'bot';
  /**
   * Whether its pages run JavaScript by default. Firefox decides this per browser (launched
   * with `javaScript: false`), Chromium per page (`openPage`'s `javaScript`).
   */
  javaScript: boolean;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

/** A launched Chromium: the kit's browser type, for the suites and scripts written for Chromium. */
export type Chromium = LaunchedBrowser;

/**
 * Launches headless Chromium: `CHROMIUM_PATH` or Debian's `/usr/bin/chromium`, a fresh profile
 * in a temporary folder (removed by `close`), flags that work in containers.
 * @param options `bot: true` presents every page as a crawler (isbot's path: no streaming, no
 *   prefetch); by default pages present as a person's Chrome — headless Chromium's own
 *   `HeadlessChrome` user agent is a bot to isbot, and would test what no person sees
 * @throws Error from puppeteer when the binary is missing (run `npm test` once as root: it installs it)
 */
export async function launchChromium(options: { bot?: boolean; executablePath?: string } = {}): Promise<Chromium> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'eiland-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: options.executablePath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    userDataDir,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    browser,
    name: 'chromium',
    presents: options.bot ? 'bot' : 'person',
    javaScript: true,
    async close() {
      await browser.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Launches headless Firefox ESR over WebDriver BiDi: `FIREFOX_PATH` or Debian's
 * `/usr/bin/firefox-esr`, a fresh profile in a temporary folder (removed by `close`) — docs/qa-kit.md §7.
 * @param options `javaScript: false` launches it with the `javascript.enabled` preference off, for
 *   the no-JS visitor (Firefox over BiDi cannot switch JavaScript off per page); `bot: true`
 *   presents every page as a crawler (Firefox's own user agent is a person's)
 * @returns the browser; its pages run JavaScript exactly when `javaScript` is not false
 * @throws Error from puppeteer when the binary is missing (run `npm test` once as root: it installs it)
 */
export async function launchFirefox(options: { bot?: boolean; javaScript?: boolean; executablePath?: string } = {}): Promise<LaunchedBrowser> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'eiland-firefox-'));
  const javaScript = options.javaScript ?? true;
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: options.executablePath ?? process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr',
    headless: true,
    userDataDir,
    extraPrefsFirefox: { 'javascript.enabled': javaScript },
  });
  return {
    browser,
    name: 'firefox',
    presents: options.bot ? 'bot' : 'person',
    javaScript,
    async close() {
      await browser.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Launches the named browser (see {@link launchChromium}, {@link launchFirefox}).
 * @param name `chromium` or `firefox`
 * @param options `bot` for both; `javaScript: false` only matters to Firefox, which decides it per browser
 * @throws Error from puppeteer when the binary is missing
 */
export function launchNamed(name: BrowserName, options: { bot?: boolean; javaScript?: boolean } = {}): Promise<LaunchedBrowser> {
  return name === 'firefox' ? launchFirefox(options) : launchChromium({ bot: options.bot });
}

/** How a page is opened: each option emulates what some visitors have. */
export interface PageOptions {
  /** false: JavaScript off (the no-JS visitor). Default true. */
  javaScript?: boolean;
  /** Viewport width in CSS pixels (default 1024; 320 is the narrowest phone the site supports). */
  width?: number;
  /** Viewport height (default 800). */
  height?: number;
  /** 2 for 200 % zoom: the layout of a viewport half as wide, drawn twice as large. */
  zoom?: number;
  /** A phone's touch screen (for `tap`). */
  touch?: boolean;
  /** `navigator.connection.saveData` and the `Save-Data: on` header. */
  saveData?: boolean;
  /** Chrome's Slow 3G throttling: `navigator.connection.effectiveType` reads `2g`. */
  slowNetwork?: boolean;
  /** `prefers-color-scheme`. */
  colorScheme?: 'light' | 'dark';
  /** Overrides the browser's `presents` for this page. */
  bot?: boolean;
}

/**
 * The page emulations a browser cannot do, named with what it lacks (docs/qa-kit.md §7).
 * @param launched the browser the page would open in
 * @param options the page's emulation
 * @returns one line per option the browser cannot honour; empty when it can honour them all
 */
export function unsupportedOptions(launched: LaunchedBrowser, options: PageOptions): string[] {
  if (launched.name !== 'firefox') return [];
  const lacks: string[] = [];
  const javaScript = options.javaScript ?? true;
  if (javaScript !== launched.javaScript) {
    lacks.push(`javaScript: ${javaScript} in a Firefox launched with javaScript: ${launched.javaScript} — Firefox over WebDriver BiDi has no emulation.setScriptingEnabled; launch another with launchFirefox({ javaScript: ${javaScript} })`);
  }
  if (options.saveData) lacks.push('saveData — Firefox has no navigator.connection (Network Information API)');
  if (options.slowNetwork) lacks.push('slowNetwork — Firefox has no navigator.connection, and WebDriver BiDi emulates no throughput (only offline)');
  if (options.colorScheme) lacks.push('colorScheme — prefers-color-scheme emulation needs CDP, which Firefox over WebDriver BiDi lacks');
  return lacks;
}

/**
 * Opens a new page with the given emulation; `url`, when given, is loaded (until `load`).
 * @param chromium the launched browser (Chromium or Firefox)
 * @returns the page (close it, or the browser, when done)
 * @throws Error naming what Firefox lacks when an option cannot be emulated there
 *   ({@link unsupportedOptions}), before any page is opened
 */
export async function openPage(chromium: LaunchedBrowser, url?: string, options: PageOptions = {}): Promise<Page> {
  const lacks = unsupportedOptions(chromium, options);
  if (lacks.length > 0) throw new Error(`Firefox cannot emulate:\n  ${lacks.join('\n  ')}`);
  const page = await chromium.browser.newPage();
  const bot = options.bot ?? chromium.presents === 'bot';
  const userAgent = bot ? BOT_USER_AGENT : (await chromium.browser.userAgent()).replace('HeadlessChrome', 'Chrome');
  await page.setUserAgent({ userAgent });
  const zoom = options.zoom ?? 1;
  const width = options.width ?? 1024;
  const height = options.height ?? 800;
  // Zoom as browsers do it: CSS pixels shrink, device pixels stay.
  await page.setViewport({ width: Math.round(width / zoom), height: Math.round(height / zoom), deviceScaleFactor: zoom, hasTouch: options.touch ?? false, isMobile: options.touch ?? false });
  if (chromium.name === 'chromium') await page.setJavaScriptEnabled(options.javaScript ?? true);
  if (chromium.name === 'firefox' && !chromium.javaScript) withoutPageScripts(page);
  if (options.colorScheme) await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: options.colorScheme }]);
  const slow = PredefinedNetworkConditions['Slow 3G'];
  if (options.slowNetwork) await page.emulateNetworkConditions(slow);
  if (options.saveData) {
    const session = await page.createCDPSession();
    await session.send('Emulation.setDataSaverOverride', { dataSaverEnabled: true });
    await page.setExtraHTTPHeaders({ 'Save-Data': 'on' });
    // The renderer the page loads in takes its connection info from every attached session: this
    // one must emulate Slow 3G too, or the page reads the real `4g` in `navigator.connection`.
    if (options.slowNetwork) await session.send('Network.emulateNetworkConditions', { offline: false, latency: slow.latency, downloadThroughput: slow.download, uploadThroughput: slow.upload });
  }
  if (url) await page.goto(url, { waitUntil: 'load' });
  return page;
}

/**
 * Hydrates an island and waits until it has: the form islands hydrate on a first interaction
 * (docs/islands.md §2), so a script that wants the hydrated form before it acts moves a pointer
 * over the island (a `pointerover`, with no focus, scroll or click). An island with another
 * trigger is only waited for. Needs JavaScript on.
 * @param page a page showing the island
 * @param name the island's name, e.g. `RegistrationForm`
 * @param timeout how long to wait in all, in ms
 * @throws Error (puppeteer's TimeoutError) when it has not hydrated in time, e.g. it failed
 */
export async function hydrateIsland(page: Page, name: string, timeout = 5000): Promise<void> {
  const marker = `[${A.name}="${name}"]`;
  await page.waitForSelector(`${marker}[${A.hydrated}]`, { timeout });
  await page.$eval(marker, (element) => element.dispatchEvent(new PointerEvent('pointerover', { bubbles: true })));
  await page.waitForSelector(`${marker}[${A.hydrated}="true"]`, { timeout });
}

/** An element handle's accessibility-tree search (WebDriver BiDi's `browsingContext.locateNodes`). */
interface AxSearch {
  queryAXTree(name?: string, role?: string): AsyncIterable<ElementHandle<Element>>;
}

/**
 * Makes `page.$`, `page.$$eval`, `page.click` and `page.waitForFunction` work in a Firefox
 * launched without JavaScript (docs/qa-kit.md §7). Puppeteer implements them with scripts that wait
 * inside the page (the `::-p-aria` query handler's callback into Node, the asynchronous iteration
 * of `$$`, an IntersectionObserver before a click, a polling loop for the wait); with JavaScript
 * off those callbacks never run, and the page hangs until Firefox closes it. Here
 * `::-p-aria(name[role="r"])` is looked up in the accessibility tree with WebDriver BiDi's
 * `locateNodes` alone, `$$eval` gets its elements from one `querySelectorAll`, a click scrolls the
 * element into view and clicks the centre of its box with the mouse, and a wait evaluates its
 * expression from Node every 50 ms.
 * @param page a page of a Firefox launched with `javaScript: false`
 */
function withoutPageScripts(page: Page): void {
  const query = page.$.bind(page);
  page.$ = (async (selector: string) => {
    const aria = /^::-p-aria\((.*?)(?:\[role="([^"]+)"\])?\)$/.exec(selector);
    if (!aria) return query(selector);
    const root = (await query('html')) as unknown as AxSearch & ElementHandle;
    try {
      for await (const element of root.queryAXTree(aria[1] || undefined, aria[2])) return element;
      return null;
    } finally {
      await root.dispose();
    }
  }) as Page['$'];
  page.$$eval = (async (selector: string, pageFunction: (elements: Element[], ...args: unknown[]) => unknown, ...args: unknown[]) => {
    if (selector.startsWith('::-p-')) throw new Error(`With JavaScript off in Firefox, $$eval takes CSS selectors only, not ${selector}`);
    const elements = await page.evaluateHandle(`[...document.querySelectorAll(${JSON.stringify(selector)})]`);
    try {
      return await elements.evaluate(pageFunction as never, ...(args as never[]));
    } finally {
      await elements.dispose();
    }
  }) as Page['$$eval'];
  page.click = async (selector, options = {}) => {
    const element = await page.$(selector);
    if (!element) throw new Error(`No element found for selector: ${selector}`);
    await element.evaluate((e) => e.scrollIntoView({ block: 'center', inline: 'center' }));
    const box = await element.boundingBox();
    await element.dispose();
    if (!box) throw new Error(`${selector} is not visible: nothing to click`);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2, options);
  };
  page.waitForFunction = (async (expression: unknown, options: { timeout?: number } = {}): Promise<JSHandle> => {
    if (typeof expression !== 'string') throw new Error('With JavaScript off, waitForFunction takes an expression string');
    const timeout = options.timeout ?? 30_000;
    const started = Date.now();
    while (!(await page.evaluate(expression))) {
      if (Date.now() - started > timeout) throw new Error(`Waiting failed: ${timeout}ms exceeded (${expression})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return page.evaluateHandle(expression);
  }) as Page['waitForFunction'];
}

/** Faults to inject into a page's requests. */
export interface Faults {
  /** Answer page-data requests (`X-Eiland-Data: 1`) with this 5xx status. */
  pageDataStatus?: number;
  /** Delay every `/assets/` response by this many ms. */
  slowAssetsMs?: number;
  /** Fail every `/assets/` request whose path matches (a network error). */
  failAssets?: RegExp;
}

/**
 * Injects faults through request interception (install before navigating).
 * @returns a function that removes them
 */
export async function injectFaults(page: Page, faults: Faults): Promise<() => Promise<void>> {
  await page.setRequestInterception(true);
  const handler = (request: HTTPRequest) => {
    if (request.isInterceptResolutionHandled()) return;
    const path = new URL(request.url()).pathname;
    if (faults.pageDataStatus && request.headers()['x-eiland-data'] === '1') {
      void request.respond({ status: faults.pageDataStatus, contentType: 'text/plain', body: 'injected fault' });
    } else if (faults.failAssets && path.startsWith('/assets/') && faults.failAssets.test(path)) {
      void request.abort('failed');
    } else if (faults.slowAssetsMs && path.startsWith('/assets/')) {
      setTimeout(() => void request.continue().catch(() => {}), faults.slowAssetsMs);
    } else {
      void request.continue();
    }
  };
  page.on('request', handler);
  return async () => {
    page.off('request', handler);
    await page.setRequestInterception(false);
  };
}

/** What went wrong in a page, as its visitor's browser saw it. */
export interface Problems {
  /** Console errors and uncaught exceptions, in order. */
  errors: string[];
  /** Every console message of any level (`type: text`) and uncaught exception, in order. */
  messages: string[];
  /** Content-Security-Policy violations: `directive blocked-uri`. */
  cspViolations: string[];
  /** The problems not on the allow-list. */
  unexpected(): string[];
  /**
   * Throws unless there are no unexpected problems.
   * @throws Error listing them
   */
  assertNone(): void;
}

/**
 * The allow-list of {@link collectProblems}: Chromium logs "Failed to load resource: the server
 * responded with a status of N" for every 4xx/5xx answer, also the ones a test asks for on
 * purpose (an error page, a refused form). List the statuses you expect.
 * @param statuses e.g. `[404]` for a test that opens a missing page
 */
export function expectedStatuses(statuses: number[]): RegExp[] {
  return statuses.map((status) => new RegExp(`^Failed to load resource: the server responded with a status of ${status}\\b`));
}

/** A WebDriver BiDi browsing context's log entries (puppeteer's `BidiFrame.browsingContext`). */
interface LogSource {
  on(event: 'log', listener: (event: { entry: { type: string; text: string | null } }) => void): unknown;
}

/**
 * Collects console errors, page exceptions and CSP violations of a page (install before
 * navigating).
 * @param allow lines that are expected (see {@link expectedStatuses})
 */
export async function collectProblems(page: Page, allow: RegExp[] = []): Promise<Problems> {
  const errors: string[] = [];
  const messages: string[] = [];
  const cspViolations: string[] = [];
  /** The lines of the last console message whose object arguments puppeteer could not name. */
  let unnamed: { line: number; error: number } | undefined;
  page.on('console', (message: ConsoleMessage) => {
    const line = messages.push(`${message.type()}: ${message.text()}`) - 1;
    const error = message.type() === 'error' ? errors.push(message.text()) - 1 : -1;
    unnamed = message.text().includes('JSHandle@') ? { line, error } : undefined;
  });
  // Firefox over WebDriver BiDi hands puppeteer an Error argument without a handle, which it names
  // `JSHandle@error`; the log entry's own text has it ("TypeError: …"). The entry arrives right
  // after the console event, on the main frame's browsing context (docs/qa-kit.md §7).
  const context = (page.mainFrame() as unknown as { browsingContext?: LogSource }).browsingContext;
  context?.on('log', ({ entry }) => {
    if (!unnamed || entry.type !== 'console' || !entry.text) return;
    messages[unnamed.line] = messages[unnamed.line]!.replace(/: .*$/s, `: ${entry.text}`);
    if (unnamed.error >= 0) errors[unnamed.error] = entry.text;
    unnamed = undefined;
  });
  page.on('pageerror', (error) => {
    messages.push(`pageerror: ${String(error)}`);
    errors.push(String(error));
  });
  await page.exposeFunction('__eilandCspViolation', (line: string) => cspViolations.push(line));
  await page.evaluateOnNewDocument(
    'document.addEventListener("securitypolicyviolation", (e) => window.__eilandCspViolation(e.violatedDirective + " " + e.blockedURI))',
  );
  const problems: Problems = {
    errors,
    messages,
    cspViolations,
    unexpected: () => [...errors.filter((line) => !allow.some((pattern) => pattern.test(line))), ...cspViolations.map((v) => `CSP: ${v}`)],
    assertNone() {
      const unexpected = problems.unexpected();
      if (unexpected.length > 0) throw new Error(`Unexpected problems in the page:\n  ${unexpected.join('\n  ')}`);
    },
  };
  return problems;
}

/**
 * The request id of the page shown (`<meta name="request-id">`, also its `X-Request-Id`), to
 * find its lines in the server's log.
 * @throws Error when the page has none (not an Eiland page)
 */
export async function requestIdOf(page: Page): Promise<string> {
  const id = (await page.evaluate('document.querySelector(\'meta[name="request-id"]\')?.content ?? null')) as string | null;
  if (!id) throw new Error(`No request id in ${page.url()}`);
  return id;
}

/**
 * Saves a screenshot and the HTML of a page under `test-results/` (git-ignored), for a failed
 * test; never throws (a closed page saves nothing).
 * @param name a file-name stem, e.g. the test's name
 * @returns the files written
 */
export async function saveFailure(page: Page, name: string): Promise<string[]> {
  const stem = join(ARTIFACTS_DIR, `${new Date().toISOString().replace(/[:.]/g, '-')}-${name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80)}`);
  try {
    await mkdir(ARTIFACTS_DIR, { recursive: true });
    await page.screenshot({ path: `${stem}.png`, fullPage: true });
    await writeFile(`${stem}.html`, await page.content());
    return [`${stem}.png`, `${stem}.html`];
  } catch {
    return [];
  }
}

/**
 * Runs a step with a page, saving its screenshot and HTML when the step fails (then rethrows).
 * @example await withFailureArtifacts(page, 'aanmelden at 320 px', async () => { … })
 */
export async function withFailureArtifacts<T>(page: Page, name: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    const files = await saveFailure(page, name);
    if (error instanceof Error && files.length > 0) error.message += `\n(saved ${files.join(', ')})`;
    throw error;
  }
}

/**
 * The QA kit: puppeteer helpers for driving Eiland in Debian's Chromium, locally or
 * against a deployed instance. The project's browser suite is built on it; a QA script of its
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
import type { BuildManifest } from '../../protocol/manifest.js';
import puppeteer, { PredefinedNetworkConditions, type Browser, type ConsoleMessage, type HTTPRequest, type Page } from 'puppeteer-core';

/**
 * The `data-testid` hooks the site promises to keep (README, "QA kit"). Everything else is
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

/** A launched Chromium with its throw-away profile. */
export interface Chromium {
  browser: Browser;
  /** `person` (the default): the user agent of a person's Chrome; `bot`: a crawler's. */
  presents: 'person' | 'bot';
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

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
    presents: options.bot ? 'bot' : 'person',
    async close() {
      await browser.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
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
 * Opens a new page with the given emulation; `url`, when given, is loaded (until `load`).
 * @returns the page (close it, or the browser, when done)
 */
export async function openPage(chromium: Chromium, url?: string, options: PageOptions = {}): Promise<Page> {
  const page = await chromium.browser.newPage();
  const bot = options.bot ?? chromium.presents === 'bot';
  const userAgent = bot ? BOT_USER_AGENT : (await chromium.browser.userAgent()).replace('HeadlessChrome', 'Chrome');
  await page.setUserAgent({ userAgent });
  const zoom = options.zoom ?? 1;
  const width = options.width ?? 1024;
  const height = options.height ?? 800;
  // Zoom as browsers do it: CSS pixels shrink, device pixels stay.
  await page.setViewport({ width: Math.round(width / zoom), height: Math.round(height / zoom), deviceScaleFactor: zoom, hasTouch: options.touch ?? false, isMobile: options.touch ?? false });
  await page.setJavaScriptEnabled(options.javaScript ?? true);
  if (options.colorScheme) await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: options.colorScheme }]);
  if (options.slowNetwork) await page.emulateNetworkConditions(PredefinedNetworkConditions['Slow 3G']);
  if (options.saveData) {
    const session = await page.createCDPSession();
    await session.send('Emulation.setDataSaverOverride', { dataSaverEnabled: true });
    await page.setExtraHTTPHeaders({ 'Save-Data': 'on' });
  }
  if (url) await page.goto(url, { waitUntil: 'load' });
  return page;
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

/**
 * Collects console errors, page exceptions and CSP violations of a page (install before
 * navigating).
 * @param allow lines that are expected (see {@link expectedStatuses})
 */
export async function collectProblems(page: Page, allow: RegExp[] = []): Promise<Problems> {
  const errors: string[] = [];
  const cspViolations: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.exposeFunction('__eilandCspViolation', (line: string) => cspViolations.push(line));
  await page.evaluateOnNewDocument(
    'document.addEventListener("securitypolicyviolation", (e) => window.__eilandCspViolation(e.violatedDirective + " " + e.blockedURI))',
  );
  const problems: Problems = {
    errors,
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

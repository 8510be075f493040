/**
 * The QA kit's pages (docs/qa-kit.md §3, §7): a page opened with a visitor's emulation, an island
 * hydrated on purpose, a page's request id. Re-exported by test/e2e/kit.ts.
 */
import { ISLAND_ATTRIBUTES as A } from '../../../protocol/islands.js';
import { PredefinedNetworkConditions, type Page } from 'puppeteer-core';
import type { LaunchedBrowser } from './launch.js';
import { withoutPageScripts } from './no-scripts.js';

/** The user agent of a well-known crawler, for bot mode. */
export const BOT_USER_AGENT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

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

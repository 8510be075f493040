/**
 * Which browsers the browser suites run in (docs/qa-kit.md §7): `E2E_BROWSERS`, a comma-separated
 * list of `chromium` and `firefox` (default `chromium`; `npm run test:e2e` sets both), and a
 * `describe` per browser so that a suite is written once.
 */
import { describe } from 'node:test';
import type { BrowserName } from '../e2e/kit.js';

const NAMES: readonly BrowserName[] = ['chromium', 'firefox'];

/**
 * The browsers named by `E2E_BROWSERS`, in its order.
 * @param value the variable's value (default: the environment's)
 * @returns the browsers; `['chromium']` when unset or empty
 * @throws Error naming an unknown browser
 */
export function e2eBrowsers(value = process.env.E2E_BROWSERS): BrowserName[] {
  const names = (value ?? '').split(',').map((name) => name.trim().toLowerCase()).filter(Boolean);
  for (const name of names) {
    if (!NAMES.includes(name as BrowserName)) throw new Error(`E2E_BROWSERS names ${JSON.stringify(name)}; known: ${NAMES.join(', ')}`);
  }
  return names.length > 0 ? [...new Set(names as BrowserName[])] : ['chromium'];
}

/**
 * How a browser is called in test names.
 * @returns `Chromium` or `Firefox`
 */
export function browserLabel(name: BrowserName): string {
  return name === 'firefox' ? 'Firefox' : 'Chromium';
}

/**
 * Registers a suite once per browser of {@link e2eBrowsers}, each in a `describe` named
 * `in <Browser>`; the body registers its hooks (e.g. `browserSuite(options, browser)`) and tests.
 * @param body gets the browser the suite runs in
 * @param browsers the browsers (default: those of `E2E_BROWSERS`)
 */
export function eachBrowser(body: (browser: BrowserName) => void, browsers: BrowserName[] = e2eBrowsers()): void {
  for (const browser of browsers) describe(`in ${browserLabel(browser)}`, () => body(browser));
}

/**
 * Why a test is skipped in some browser, for `it(name, { skip: skipIn(browser, 'firefox', why) })`.
 * @param browser the browser the suite runs in
 * @param skipped the browser that cannot run the test
 * @param why what that browser lacks
 * @returns false in any other browser; else the reason the test is skipped
 */
export function skipIn(browser: BrowserName, skipped: BrowserName, why: string): string | false {
  return browser === skipped ? `${browserLabel(skipped)} ${why}` : false;
}

/**
 * The QA kit's browsers (docs/qa-kit.md §3, §7): Debian's Chromium over CDP and Firefox ESR over
 * WebDriver BiDi, each headless with a throw-away profile. Re-exported by test/e2e/kit.ts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';

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

/**
 * Puppeteer-core on Debian's Chromium (toolchain.md): launch flags that work
 * on this machine, a throw-away profile, and console/CSP error collection.
 * Functions given to the page are strings: tsx rewrites real functions.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { startApp, type TestApp, type TestAppOptions } from './app.js';

/** A launched browser that removes its profile on close. */
export interface TestBrowser {
  browser: Browser;
  /** A new page; `javaScript: false` for the no-JS runs. */
  newPage(options?: { javaScript?: boolean; width?: number }): Promise<TestPage>;
  close(): Promise<void>;
}

/** A page with every console error and failed request it saw. */
export interface TestPage {
  page: Page;
  /** console.error texts and uncaught page errors. */
  errors: string[];
}

/** Launches headless Chromium from `CHROMIUM_PATH` or `/usr/bin/chromium`. */
export async function launchBrowser(): Promise<TestBrowser> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'eiland-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    userDataDir,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    browser,
    async newPage({ javaScript = true, width = 1024 } = {}) {
      const page = await browser.newPage();
      // "HeadlessChrome" is a bot to isbot: present the browser a person uses.
      await page.setUserAgent({ userAgent: (await browser.userAgent()).replace('HeadlessChrome', 'Chrome') });
      await page.setViewport({ width, height: 800 });
      await page.setJavaScriptEnabled(javaScript);
      const errors: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(msg.text());
      });
      page.on('pageerror', (err) => errors.push(String(err)));
      return { page, errors };
    },
    async close() {
      await browser.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/** The app and browser of a browser suite, valid inside its tests. */
export interface BrowserSuite {
  readonly app: TestApp;
  readonly chromium: TestBrowser;
}

/**
 * Registers `before`/`after` hooks that start the app (on a fresh database
 * unless `options.storage`) and Chromium, and close both afterwards.
 * @param options createApp options, or a function giving them (run in `before`)
 */
export function browserSuite(options: TestAppOptions | (() => Promise<TestAppOptions>) = {}): BrowserSuite {
  let app: TestApp | undefined;
  let chromium: TestBrowser | undefined;
  before(async () => {
    app = await startApp(typeof options === 'function' ? await options() : options);
    chromium = await launchBrowser();
  });
  after(async () => {
    await chromium?.close();
    await app?.close();
  });
  return {
    get app() {
      return app!;
    },
    get chromium() {
      return chromium!;
    },
  };
}

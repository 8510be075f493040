/**
 * The QA kit itself (test/e2e/kit.ts): each emulation, fault and collector does what
 * its docstring says, in a real Chromium against the app.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { startApp, waitFor } from '../helpers/app.js';
import { useResource } from '../helpers/suite.js';
import { BASE_URL, collectProblems, expectedStatuses, injectFaults, launchChromium, openPage, requestIdOf, saveFailure, withFailureArtifacts } from './kit.js';

// The kit's own browsers, launched as a QA script launches them (closed before the app: hooks run in order).
const person = useResource('launchChromium()', () => launchChromium(), (chromium) => chromium.close());
const bot = useResource('launchChromium({ bot: true })', () => launchChromium({ bot: true }), (chromium) => chromium.close());
const app = useResource('the app', async () => (BASE_URL ? { url: BASE_URL, close: async () => {} } : startApp()), (started) => started.close());

const read = <T,>(page: import('puppeteer-core').Page, expression: string) => page.evaluate(expression) as Promise<T>;

describe('the QA kit: presenting', () => {
  it('presents as a person by default, and as a crawler in bot mode', async () => {
    const page = await openPage(person, `${app.url}/`);
    assert.doesNotMatch(await read<string>(page, 'navigator.userAgent'), /HeadlessChrome|bot/i);
    await page.close();
    const crawler = await openPage(bot, `${app.url}/`);
    assert.match(await read<string>(crawler, 'navigator.userAgent'), /Googlebot/);
    // A crawler gets the whole document: no reveal script of a streamed boundary.
    assert.doesNotMatch(await crawler.content(), /\$RC|hidden id="S:/);
    await crawler.close();
  });

  it('emulates JavaScript off, saveData, Slow 3G, dark mode, 320 px and 200 % zoom', async () => {
    const off = await openPage(person, `${app.url}/aanmelden`, { javaScript: false });
    assert.equal(await off.$('[data-hydrated="true"]'), null, 'nothing hydrates');
    await off.close();
    const page = await openPage(person, `${app.url}/`, { saveData: true, slowNetwork: true, colorScheme: 'dark', width: 320 });
    assert.equal(await read<boolean>(page, 'navigator.connection.saveData'), true);
    assert.equal(await read<string>(page, 'navigator.connection.effectiveType'), '2g');
    assert.equal(await read<boolean>(page, 'matchMedia("(prefers-color-scheme: dark)").matches'), true);
    assert.equal(await read<number>(page, 'innerWidth'), 320);
    await page.close();
    const zoomed = await openPage(person, `${app.url}/`, { width: 1280, zoom: 2 });
    assert.equal(await read<number>(zoomed, 'innerWidth'), 640);
    assert.equal(await read<number>(zoomed, 'devicePixelRatio'), 2);
    await zoomed.close();
  });
});

describe('the QA kit: faults', () => {
  it('answers page data with a 5xx, fails and slows assets', async () => {
    const page = await openPage(person);
    await injectFaults(page, { pageDataStatus: 503, failAssets: /\.css$/, slowAssetsMs: 400 });
    const started = Date.now();
    await page.goto(`${app.url}/`, { waitUntil: 'load' });
    assert.ok(Date.now() - started >= 400, 'the router script came late');
    assert.equal(await read<string>(page, 'getComputedStyle(document.querySelector(".skip-link")).position'), 'static', 'no stylesheet');
    assert.equal(await read<number>(page, 'fetch("/over", { headers: { "X-Eiland-Data": "1" } }).then((r) => r.status)'), 503);
    await page.close();
  });
});

describe('the QA kit: what went wrong', () => {
  it('collects console errors and CSP violations, allowing listed statuses', async () => {
    const page = await openPage(person);
    const problems = await collectProblems(page, expectedStatuses([404]));
    await page.goto(`${app.url}/bestaat-niet`, { waitUntil: 'load' });
    assert.ok(problems.errors.some((e) => /status of 404/.test(e)));
    assert.deepEqual(problems.unexpected(), [], 'the 404 was expected');
    problems.assertNone();
    // An inline script without the nonce: the CSP refuses it.
    await page.evaluate('(() => { const s = document.createElement("script"); s.textContent = "1"; document.body.append(s); })()');
    await waitFor(() => problems.cspViolations.length > 0);
    assert.ok(problems.cspViolations.some((v) => v.startsWith('script-src')), problems.cspViolations.join(' | '));
    assert.throws(() => problems.assertNone(), /Unexpected problems in the page/);
    await page.close();
  });

  it('reads the request id the response carried', async () => {
    const page = await openPage(person);
    const response = await page.goto(`${app.url}/over`);
    assert.equal(await requestIdOf(page), response!.headers()['x-request-id']);
    await page.close();
  });

  it('saves a screenshot and the HTML of a failing step, and rethrows', async () => {
    const page = await openPage(person, `${app.url}/over`);
    const files = await saveFailure(page, 'kit self-test');
    assert.equal(files.length, 2);
    assert.ok(files.every((f) => f.startsWith('test-results/') && existsSync(f)));
    await assert.rejects(
      withFailureArtifacts(page, 'kit self-test 2', async () => {
        throw new Error('stap mislukt');
      }),
      /stap mislukt\n\(saved test-results\/.*\.png/,
    );
    await page.close();
    await Promise.all(files.map((f) => rm(f, { force: true })));
  });
});

/**
 * A failing island in Chromium (docs/errors.md §5–§6): the Application error in its place, the
 * error in the console and reported once, the other islands still working.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { APPLICATION_ERROR } from '../../protocol/client-errors.js';
import { ROUTES } from '../../protocol/routes.js';
import { productionAssets } from '../../src/assets/source.js';
import { readManifest } from '../../src/assets/manifest.js';
import { testBuild, islandRoutes } from '../fixtures/island-routes.js';
import { waitFor } from '../helpers/app.js';
import { browserSuite, needsServer, withPage } from '../helpers/browser-suite.js';

/** Counts the page's beacons in `window.beaconsSent`: client errors are reported with them (docs/errors.md §6). */
const COUNT_BEACONS = `(() => {
  const send = navigator.sendBeacon.bind(navigator);
  window.beaconsSent = 0;
  navigator.sendBeacon = (url, data) => {
    window.beaconsSent += 1;
    return send(url, data);
  };
})()`;

let build: Awaited<ReturnType<typeof testBuild>> | undefined;
const suite = browserSuite(async () => {
  build = await testBuild({ testIslands: true });
  return { assets: productionAssets(build.dir), extraRoutes: islandRoutes };
});
after(() => build?.remove());

describe('a failing island (docs/errors.md §5–§6)', { skip: needsServer("test-only islands and the server's logs") }, () => {
  const cases: Array<[mode: string, act: boolean, thrown: string]> = [
    ['hydration', false, 'Eiland proef-fout bij hydratatie'],
    ['handler', true, 'Eiland proef-fout in handler'],
    ['render', true, 'Eiland proef-fout bij renderen'],
  ];
  for (const [mode, act, thrown] of cases) {
    it(`fails in ${mode}: shows the Application error in its place, logs to the console, reports once; others keep working`, () =>
      withPage(suite.chromium, {}, async ({ page, errors }) => {
        await page.evaluateOnNewDocument(COUNT_BEACONS);
        await page.goto(`${suite.app.url}/proef/eilanden?mode=${mode}`);
        await page.waitForSelector('[data-island="Teller"][data-hydrated="true"]', { timeout: 5000 });
        if (act) {
          await page.waitForSelector('[data-island="Exploder"][data-hydrated="true"]', { timeout: 5000 });
          await page.click('.exploder');
        }
        await page.waitForSelector('[data-island="Exploder"] [role="alert"]', { timeout: 5000 });
        const alert = await page.$eval('[data-island="Exploder"] [role="alert"]', (e) => ({ text: e.textContent, lang: e.getAttribute('lang') }));
        assert.deepEqual(alert, { text: APPLICATION_ERROR, lang: 'en' });
        assert.equal(await page.$('.exploder'), null);

        await page.click('.teller');
        await page.waitForFunction('document.querySelector(".teller").textContent === "Geteld: 1"', { timeout: 3000 });

        assert.ok(errors.some((e) => e.includes(thrown)), `console.error has the error: ${errors.join(' | ')}`);
        const requestId = await page.$eval('meta[name="request-id"]', (e) => e.getAttribute('content'));
        // A second report of the failure would have been sent before the page counted the click
        // after it: once every beacon sent has its line, nothing more is coming.
        const sent = Number(await page.evaluate('window.beaconsSent'));
        const reported = () => suite.local.logs().filter((l) => l.event === 'client_error' && l.pageRequestId === requestId);
        await waitFor(() => reported().length >= Math.max(sent, 1));
        const lines = reported();
        assert.equal(lines.length, 1);
        assert.equal(lines[0]?.level, 50);
        assert.equal(lines[0]?.source, 'client');
        assert.equal(lines[0]?.island, 'Exploder');
        assert.equal(lines[0]?.message, thrown);
        assert.equal(lines[0]?.page, '/proef/eilanden');
      }));
  }

  it('test-only islands never ship: the site build has none', () => {
    const site = readManifest('dist/manifest.json');
    assert.deepEqual(Object.keys(site.islands).sort(), [...new Set(ROUTES.flatMap((route) => route.islands))].sort());
    assert.ok(existsSync(`${build!.dir}/manifest.json`));
  });
});

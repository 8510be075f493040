/**
 * The back/forward cache in Chromium (docs/pages.md §2): nothing of Eiland's keeps a page out of
 * it. A static page is restored on Back; an ssr page is sent with `no-store`, which is the only
 * reason Chromium ever gives for loading one again.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserSuite, withPage } from '../helpers/browser-suite.js';
import { pagesOfKind } from '../helpers/site-pages.js';

const suite = browserSuite();

/**
 * Loads `path` as a document, marks its window, loads another document, goes Back, and tells
 * whether the marked window came back (restored from the back/forward cache) and why not if not.
 */
async function restoredOnBack(path: string): Promise<{ restored: boolean; reasons: string[] }> {
  return withPage(suite.chromium, {}, async ({ page, errors }) => {
    const reasons: string[] = [];
    const cdp = await page.createCDPSession();
    await cdp.send('Page.enable');
    cdp.on('Page.backForwardCacheNotUsed', (event: { notRestoredExplanations: Array<{ reason: string }> }) => reasons.push(...event.notRestoredExplanations.map((e) => e.reason)));
    await page.goto(suite.app.url + path, { waitUntil: 'load' });
    await page.evaluate('window.gemarkeerd = true');
    await page.goto(`${suite.app.url}/privacy?van=${encodeURIComponent(path)}`, { waitUntil: 'load' });
    await page.goBack({ waitUntil: 'load' });
    assert.equal(new URL(page.url()).pathname, path);
    assert.deepEqual(errors, []);
    return { restored: (await page.evaluate('window.gemarkeerd === true')) === true, reasons };
  });
}

describe('the back/forward cache (docs/pages.md §2)', () => {
  for (const path of pagesOfKind('static')) {
    it(`restores the static page ${path} on Back`, async () => {
      const { restored, reasons } = await restoredOnBack(path);
      assert.deepEqual(reasons, []);
      assert.equal(restored, true);
    });
  }

  for (const path of pagesOfKind('ssr')) {
    it(`keeps the ssr page ${path} out only for its no-store, if at all`, async () => {
      const { restored, reasons } = await restoredOnBack(path);
      // Chromium restores a no-store page unless a cookie it could depend on changed meanwhile
      // (CacheControlNoStoreCookieModified and the like); no other reason may appear.
      assert.equal(restored, reasons.length === 0, `restored: ${restored}, reasons: ${reasons.join(', ')}`);
      assert.deepEqual(
        reasons.filter((r) => !r.startsWith('CacheControlNoStore') && r !== 'MainResourceHasCacheControlNoStore'),
        [],
      );
    });
  }
});

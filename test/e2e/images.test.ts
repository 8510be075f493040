/**
 * Responsive images in Chromium (docs/images.md §2): the browser picks its width from
 * the hero's srcset by viewport, and the head's preload fetches exactly what the <img> then
 * uses (one download), with JavaScript on and off.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserSuite, withPage } from '../helpers/browser-suite.js';

const suite = browserSuite();

/** Loads `/` at a viewport width; returns the hero's chosen width and every /_image request. */
function heroAt(width: number, javaScript: boolean) {
  return withPage(suite.chromium, { javaScript, width }, async ({ page, errors }) => {
    const requests: string[] = [];
    const types: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/_image') requests.push(r.url());
    });
    page.on('response', (r) => {
      if (new URL(r.url()).pathname === '/_image') types.push(`${r.status()} ${r.headers()['content-type']}`);
    });
    await page.goto(`${suite.app.url}/`, { waitUntil: 'load' });
    await page.waitForFunction('document.querySelector("img.hero").complete && document.querySelector("img.hero").naturalWidth > 0');
    const current = (await page.$eval('img.hero', (img) => (img as HTMLImageElement).currentSrc)) as string;
    // Who fetched it: `link` (the head's preload) rather than `img`.
    const initiators = (await page.evaluate(
      'performance.getEntriesByType("resource").filter((e) => new URL(e.name).pathname === "/_image").map((e) => e.initiatorType)',
    )) as string[];
    return { current, types, requests, errors, initiators, chosen: Number(new URL(current).searchParams.get('w')) };
  });
}

for (const javaScript of [true, false]) {
  describe(`the hero picks its width by viewport (JavaScript ${javaScript ? 'on' : 'off'})`, () => {
    it('375 px and 1440 px choose different widths, each downloaded once, as preloaded', async () => {
      const narrow = await heroAt(375, javaScript);
      const wide = await heroAt(1440, javaScript);
      // sizes "(max-width: 42rem) 100vw, 42rem" at density 1: 375 px → 640w; 672 px → 750w.
      assert.equal(narrow.chosen, 640);
      assert.equal(wide.chosen, 750);
      for (const run of [narrow, wide]) {
        assert.deepEqual(run.requests, [run.current], 'one /_image request: the preload, then used by the <img>');
        assert.deepEqual(run.types, ['200 image/webp']);
        assert.deepEqual(run.initiators, ['link'], 'fetched by the preload');
        assert.deepEqual(run.errors, []);
      }
    });
  });
}

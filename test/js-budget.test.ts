/**
 * The JavaScript budgets of docs/performance.md §1, checked on the build `npm test` has just
 * made: what each page makes a browser load (its scripts, the modules its router loads after
 * the first paint, and everything they import), compressed as `npm run bench` compresses it.
 * A size, not a timing: a change that puts a page over its budget fails here.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JS_BUDGET, KIB } from '../bench/budgets.mjs';
import { pageScripts } from '../bench/page-scripts.mjs';
import { useApp } from './helpers/app.js';
import { siteBuild } from './helpers/test-dist.js';
import { PAGE_PATHS, PAGES_WITHOUT_ISLANDS } from './helpers/routes.js';

const kib = (bytes: number) => `${(bytes / KIB).toFixed(2)} KiB`;

describe('the JavaScript budgets of the production build (docs/performance.md §1)', () => {
  const app = useApp(siteBuild);

  for (const path of PAGES_WITHOUT_ISLANDS) {
    it(`${path}: at most ${kib(JS_BUDGET.gzipWithoutIslands)} gzip`, async () => {
      const { gzip, files } = await pageScripts(app.port, path);
      assert.ok(files > 0, 'the router at least');
      assert.ok(gzip <= JS_BUDGET.gzipWithoutIslands, `${kib(gzip)} gzip`);
    });
  }

  for (const path of PAGE_PATHS.filter((p) => !PAGES_WITHOUT_ISLANDS.includes(p))) {
    it(`${path}: at most ${kib(JS_BUDGET.gzipWithIslands)} gzip and ${kib(JS_BUDGET.brotliWithIslands)} brotli`, async () => {
      const { gzip, brotli, urls } = await pageScripts(app.port, path);
      assert.ok(urls.some((url) => /\/chunk-/.test(url)), `the island's chunks are counted: ${urls.join(' ')}`);
      assert.ok(gzip <= JS_BUDGET.gzipWithIslands, `${kib(gzip)} gzip`);
      assert.ok(brotli <= JS_BUDGET.brotliWithIslands, `${kib(brotli)} brotli`);
    });
  }
});

/**
 * The JavaScript budgets of docs/performance.md §1, checked on the build `npm test` has just
 * made: what each page makes a browser load (its scripts, the modules its router loads after
 * the first paint, and everything they import), compressed as `npm run bench` compresses it, in
 * two parts on a page with an island: React's module, the size recorded with React's version,
 * and Eiland's own code, everything else, within its budget. A size, not a timing: a change that
 * puts a page over its budget fails here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { JS_BUDGET, KIB, REACT_MODULE, reactModuleChange } from '../bench/budgets.mjs';
import { pageScripts } from '../bench/page-scripts.mjs';
import { readManifest } from '../src/assets/manifest.js';
import { useApp } from './helpers/app.js';
import { siteBuild } from './helpers/test-dist.js';
import { PAGE_PATHS, PAGES_WITHOUT_ISLANDS } from './helpers/site-pages.js';

const kib = (bytes: number) => `${(bytes / KIB).toFixed(2)} KiB`;
const LOCK = JSON.parse(readFileSync('package-lock.json', 'utf8')) as Parameters<typeof reactModuleChange>[0];

describe('the JavaScript budgets of the production build (docs/performance.md §1)', () => {
  const app = useApp(siteBuild);
  const manifest = readManifest('dist/manifest.json');

  for (const path of PAGES_WITHOUT_ISLANDS) {
    it(`${path}: at most ${kib(JS_BUDGET.gzipWithoutIslands)} gzip`, async () => {
      const { gzip, files } = await pageScripts(app.port, path);
      assert.ok(files > 0, 'the router at least');
      assert.ok(gzip <= JS_BUDGET.gzipWithoutIslands, `${kib(gzip)} gzip`);
    });
  }

  for (const path of PAGE_PATHS.filter((p) => !PAGES_WITHOUT_ISLANDS.includes(p))) {
    it(`${path}: Eiland's own code at most ${kib(JS_BUDGET.gzipOwnWithIslands)} gzip, React's module beside it`, async () => {
      const { gzip, sizes, react } = await pageScripts(app.port, path);
      assert.ok(react && react.url === manifest.react, `React's module is among what the page loads: ${Object.keys(sizes).join(' ')}`);
      const own = gzip - react.gzip;
      const each = Object.entries(sizes).filter(([url]) => url !== manifest.react).map(([url, size]) => `${url} ${size.gzip}`);
      assert.ok(own <= JS_BUDGET.gzipOwnWithIslands, `${kib(own)} gzip (${own} bytes: ${each.join(', ')})`);
    });
  }

  it("React's module is the size recorded with React's version in package-lock.json (bench/budgets.mjs)", () => {
    assert.ok(manifest.react, "the manifest names React's module");
    const gzip = gzipSync(readFileSync(`dist${manifest.react}`), { level: 9 }).length;
    assert.equal(reactModuleChange(LOCK, gzip), undefined);
  });

  it('would say what to update when React changes, and when its module changes without it', () => {
    const lock = (react: string) => ({ packages: { ...LOCK.packages, 'node_modules/react': { version: react } } });
    assert.equal(reactModuleChange(lock(REACT_MODULE.versions.react), REACT_MODULE.gzip), undefined);
    assert.match(reactModuleChange(lock('99.0.0'), REACT_MODULE.gzip + 10) ?? '', /^React changed \(react [\d.]+ → 99\.0\.0\): .*record it in bench\/budgets\.mjs: REACT_MODULE = \{"versions":\{"react":"99\.0\.0",/);
    assert.match(reactModuleChange(lock(REACT_MODULE.versions.react), REACT_MODULE.gzip + 10) ?? '', /^React's module is \d+ bytes gzip, but \d+ with the same React .*something else changed it/);
  });
});

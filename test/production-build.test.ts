/**
 * Production carries no trace of development (docs/development.md §2, §5): no reload route, no reload
 * client in any page or page data, no source maps — where a development build has them.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { readManifest } from '../src/assets/manifest.js';
import { testBuild } from './fixtures/island-routes.js';
import { ROUTES } from '../protocol/routes.js';
import { raw, useApp } from './helpers/app.js';

/** The pages (docs/pages.md §1) that need no stored registration. */
const PAGES = ROUTES.filter((r) => !r.path.includes(':')).map((r) => r.path);

describe('production has no trace of development (docs/development.md §2)', () => {
  const app = useApp();

  it('has no /_eiland/reload route', async () => {
    const res = await raw(app.port, '/_eiland/reload');
    assert.equal(res.status, 404);
    assert.doesNotMatch(String(res.headers['content-type']), /event-stream/);
  });

  it('puts no reload client in any page, HTML or page data', async () => {
    for (const path of PAGES) {
      for (const headers of [{}, { 'X-Eiland-Data': '1' }] as Array<Record<string, string>>) {
        const res = await raw(app.port, path, { headers });
        assert.equal(res.status, 200, path);
        assert.doesNotMatch(res.body, /eiland-reload|eiland-build|_eiland\/reload/, `${path} ${JSON.stringify(headers)}`);
      }
    }
  });

  it('ships no source map: no .map file and no sourceMappingURL in any asset', () => {
    const files = readdirSync('dist/assets');
    assert.ok(files.some((f) => f.endsWith('.js')), 'the build has scripts');
    assert.deepEqual(files.filter((f) => f.endsWith('.map')), []);
    for (const file of files.filter((f) => /\.(js|css)$/.test(f))) {
      assert.doesNotMatch(readFileSync(join('dist/assets', file), 'utf8'), /sourceMappingURL/, file);
    }
    assert.equal(readManifest('dist/manifest.json').reload, undefined, 'no reload client in the manifest');
  });

  it('where a development build has its source maps, reload client and React bundles (the checks above can fail)', async () => {
    const build = await testBuild({ development: true });
    try {
      const files = readdirSync(join(build.dir, 'assets'));
      assert.ok(files.some((f) => f.endsWith('.js.map')));
      assert.ok(readdirSync(join(build.dir, 'assets', 'vendor')).some((f) => /^react-dom-client-\w+\.js$/.test(f)), 'React on its own (docs/development.md §1)');
      const reload = readManifest(join(build.dir, 'manifest.json')).reload;
      assert.ok(reload);
      assert.match(readFileSync(join(build.dir, reload.file.replace('/assets/', 'assets/')), 'utf8'), /sourceMappingURL=eiland-reload-\w+\.js\.map/);
    } finally {
      await build.remove();
    }
  });

  it('leaves nothing of a development build in the folder a production build reuses', async () => {
    const build = await testBuild({ development: true });
    try {
      await promisify(execFile)(process.execPath, ['build.mjs', '--client', '--out', build.dir], { env: { ...process.env, NODE_ENV: 'production' } });
      const files = readdirSync(join(build.dir, 'assets'));
      assert.ok(files.some((f) => f.endsWith('.js')), 'the production build is there');
      assert.deepEqual(files.filter((f) => f === 'vendor' || f.endsWith('.map') || f.startsWith('eiland-reload-')), []);
    } finally {
      await build.remove();
    }
  });
});

/**
 * The server bundle, deployed (docs/operations.md §9): it runs with plain node from a
 * copy without devDependencies, serving every page, the page data and a form post, and refuses a
 * missing or foreign build and NODE_ENV=development.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { readManifest } from '../src/assets/manifest.js';
import { ROUTES } from '../protocol/routes.js';
import { raw, textOf, within } from './helpers/app.js';
import { postForm, VALID } from './helpers/form.js';
import { productionEnv, run, startBundle, startProcess, useProjectCopy, withProcess } from './helpers/project.js';

/** The pages (docs/pages.md §1) that need no stored registration. */
const PAGES = ROUTES.filter((r) => !r.path.includes(':')).map((r) => r.path);

describe('the server bundle, deployed without devDependencies (docs/operations.md §9)', { timeout: 120_000 }, () => {
  // What a deployment has after `npm ci && npm run build && npm prune --omit=dev`.
  const copy = useProjectCopy({ modules: 'hardlink', files: ['package.json', 'package-lock.json', 'dist', 'public'] });
  before(() => run('npm', ['prune', '--omit=dev', '--offline', '--no-audit', '--no-fund'], { cwd: copy.dir }));

  /** Starts the bundle in the copy, which must refuse to start: its exit code and output. */
  const refusal = (env: NodeJS.ProcessEnv) =>
    withProcess(
      async () => ({ server: startProcess(process.execPath, ['dist/server/main.js'], { cwd: copy.dir, env }) }),
      async ({ server }) => ({ code: await within(server.exited, 20_000, 'the refusal to start'), output: server.output() }),
    );

  it('leaves only the runtime packages: no tsx, TypeScript, esbuild or React', () => {
    const modules = readdirSync(join(copy.dir, 'node_modules'));
    for (const gone of ['tsx', 'typescript', 'esbuild', 'react', 'react-dom', 'express', 'pino']) assert.ok(!modules.includes(gone), `${gone} pruned`);
    assert.ok(modules.includes('better-sqlite3'), 'the native driver stays');
  });

  it('serves every page, the page data and a form post with plain node', () =>
    withProcess(
      () => startBundle(copy.dir),
      async ({ server, port }) => {
        for (const path of PAGES) {
          const page = await raw(port, path);
          assert.equal(page.status, 200, path);
          assert.match(page.body, /^<!DOCTYPE html><html lang="nl">/, path);
          const data = await raw(port, path, { headers: { 'X-Eiland-Data': '1' } });
          assert.equal(data.status, 200, path);
          assert.equal(JSON.parse(data.body).buildId, readManifest(join(copy.dir, 'dist/manifest.json')).buildId, path);
        }
        const posted = await postForm({ port, url: `http://127.0.0.1:${port}` }, '/aanmelden', VALID);
        assert.equal(posted.status, 303);
        const confirmation = await raw(port, String(posted.headers.location));
        assert.equal(confirmation.status, 200);
        assert.match(textOf(confirmation.body, 'h1') ?? '', /Bedankt voor je aanmelding, Anna de Vries/);
        // Its data lives in the copy's own data/ folder: the project root is found from the bundle.
        assert.ok(readdirSync(join(copy.dir, 'data')).includes('eiland.db'));
        assert.equal(await server.stop(), 0, 'exits 0 on SIGTERM');
      },
    ));

  it('refuses to start without a build, naming the command', async () => {
    await rename(join(copy.dir, 'dist/manifest.json'), join(copy.dir, 'dist/manifest.moved'));
    try {
      const { code, output } = await refusal(productionEnv());
      assert.equal(code, 1);
      assert.match(output, /dist\/manifest\.json is missing or unreadable: run "npm run build" first/);
    } finally {
      await rename(join(copy.dir, 'dist/manifest.moved'), join(copy.dir, 'dist/manifest.json'));
    }
  });

  it('refuses a client build other than the one it was bundled with', async () => {
    const file = join(copy.dir, 'dist/manifest.json');
    const original = await readFile(file, 'utf8');
    try {
      await writeFile(file, original.replace(/"buildId": "[^"]+"/, '"buildId": "AnotherBuild"'));
      const { code, output } = await refusal(productionEnv());
      assert.equal(code, 1);
      assert.match(output, /is build AnotherBuild, but this server was bundled with build \S+: run "npm run build"/);
    } finally {
      await writeFile(file, original);
    }
  });

  it('refuses NODE_ENV=development: development is npm run dev', async () => {
    const { code, output } = await refusal(productionEnv({ NODE_ENV: 'development' }));
    assert.equal(code, 1);
    assert.match(output, /NODE_ENV=development does not match this production bundle: run "npm start" for production, "npm run dev" for development/);
  });
});

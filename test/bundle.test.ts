/**
 * The production build (product.md §5, §11, issue 8): the server bundle runs with plain node
 * from a copy without devDependencies, refuses a missing or foreign build, and production
 * carries no trace of development.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readManifest } from '../src/assets/manifest.js';
import { findProjectRoot } from '../src/project-root.js';
import { testBuild } from './fixtures/island-routes.js';
import { ROUTES } from '../protocol/routes.js';
import { raw, startApp, textOf, type TestApp } from './helpers/app.js';
import { postForm, VALID } from './helpers/form.js';
import { copyProject, productionEnv, run, SERVER_STARTED, startProcess, type ProjectCopy, type WatchedProcess } from './helpers/project.js';

/** The pages of product.md §1 that need no stored registration. */
const PAGES = ROUTES.filter((r) => !r.path.includes(':')).map((r) => r.path);

describe('production has no trace of development (product.md §11)', () => {
  let app: TestApp;
  before(async () => (app = await startApp()));
  after(() => app.close());

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

  it('where a development build has its source maps and reload client (the checks above can fail)', async () => {
    const build = await testBuild({ development: true });
    try {
      const files = readdirSync(join(build.dir, 'assets'));
      assert.ok(files.some((f) => f.endsWith('.js.map')));
      const reload = readManifest(join(build.dir, 'manifest.json')).reload;
      assert.ok(reload);
      assert.match(readFileSync(join(build.dir, reload.file.replace('/assets/', 'assets/')), 'utf8'), /sourceMappingURL=eiland-reload-\w+\.js\.map/);
    } finally {
      await build.remove();
    }
  });
});

describe('the server bundle, deployed without devDependencies (README: deploy)', { timeout: 120_000 }, () => {
  let copy: ProjectCopy;
  let server: WatchedProcess | undefined;
  before(async () => {
    // What a deployment has after `npm ci && npm run build && npm prune --omit=dev`.
    copy = await copyProject({ modules: 'hardlink', files: ['package.json', 'package-lock.json', 'dist', 'public'] });
    await run('npm', ['prune', '--omit=dev', '--offline', '--no-audit', '--no-fund'], { cwd: copy.dir });
  });
  after(async () => {
    await server?.stop();
    await copy.remove();
  });

  it('leaves only the runtime packages: no tsx, TypeScript, esbuild or React', () => {
    const modules = readdirSync(join(copy.dir, 'node_modules'));
    for (const gone of ['tsx', 'typescript', 'esbuild', 'react', 'react-dom', 'express', 'pino']) assert.ok(!modules.includes(gone), `${gone} pruned`);
    assert.ok(modules.includes('better-sqlite3'), 'the native driver stays');
  });

  it('serves every page, the page data and a form post with plain node', async () => {
    server = startProcess(process.execPath, ['dist/server/main.js'], { cwd: copy.dir, env: productionEnv() });
    const port = Number((await server.waitFor(SERVER_STARTED))[1]);
    for (const path of PAGES) {
      const page = await raw(port, path);
      assert.equal(page.status, 200, path);
      assert.match(page.body, /^<!DOCTYPE html><html lang="nl">/, path);
      const data = await raw(port, path, { headers: { 'X-Eiland-Data': '1' } });
      assert.equal(data.status, 200, path);
      assert.equal(JSON.parse(data.body).buildId, readManifest(join(copy.dir, 'dist/manifest.json')).buildId, path);
    }
    const posted = await postForm({ port, url: `http://127.0.0.1:${port}` }, VALID);
    assert.equal(posted.status, 303);
    const confirmation = await raw(port, String(posted.headers.location));
    assert.equal(confirmation.status, 200);
    assert.match(textOf(confirmation.body, 'h1') ?? '', /Bedankt voor je aanmelding, Anna de Vries/);
    // Its data lives in the copy's own data/ folder: the project root is found from the bundle.
    assert.ok(readdirSync(join(copy.dir, 'data')).includes('eiland.db'));
    assert.equal(await server.stop(), 0, 'exits 0 on SIGTERM');
    server = undefined;
  });

  it('refuses to start without a build, naming the command', async () => {
    await rename(join(copy.dir, 'dist/manifest.json'), join(copy.dir, 'dist/manifest.moved'));
    try {
      const proc = startProcess(process.execPath, ['dist/server/main.js'], { cwd: copy.dir, env: productionEnv() });
      assert.equal(await proc.exited, 1);
      assert.match(proc.output(), /dist\/manifest\.json is missing or unreadable: run "npm run build" first/);
    } finally {
      await rename(join(copy.dir, 'dist/manifest.moved'), join(copy.dir, 'dist/manifest.json'));
    }
  });

  it('refuses a client build other than the one it was bundled with', async () => {
    const file = join(copy.dir, 'dist/manifest.json');
    const original = await readFile(file, 'utf8');
    try {
      await writeFile(file, original.replace(/"buildId": "[^"]+"/, '"buildId": "AnotherBuild"'));
      const proc = startProcess(process.execPath, ['dist/server/main.js'], { cwd: copy.dir, env: productionEnv() });
      assert.equal(await proc.exited, 1);
      assert.match(proc.output(), /is build AnotherBuild, but this server was bundled with build \S+: run "npm run build"/);
    } finally {
      await writeFile(file, original);
    }
  });

  it('refuses NODE_ENV=development: development is npm run dev', async () => {
    const proc = startProcess(process.execPath, ['dist/server/main.js'], { cwd: copy.dir, env: productionEnv({ NODE_ENV: 'development' }) });
    assert.equal(await proc.exited, 1);
    assert.match(proc.output(), /NODE_ENV=development does not match this production bundle: run "npm start" for production, "npm run dev" for development/);
  });
});

describe('npm start (issue 8)', { timeout: 120_000 }, () => {
  let copy: ProjectCopy;
  let start: WatchedProcess | undefined;
  before(async () => (copy = await copyProject()));
  after(async () => {
    await start?.stop();
    await copy.remove();
  });

  it('builds, then runs the bundle with plain node, and ignores a tampered src/ at run time', async () => {
    start = startProcess('npm', ['start'], { cwd: copy.dir, env: productionEnv() });
    const port = Number((await start.waitFor(SERVER_STARTED, 60_000))[1]);
    assert.equal(textOf((await raw(port, '/over')).body, 'h1'), 'Over deze site');

    // What runs is node on the bundle: no tsx, no TypeScript (the process group of npm start).
    const processes = (await run('ps', ['-o', 'args=', '-g', String(start.child.pid)])).split('\n').filter(Boolean);
    assert.ok(processes.some((p) => /^node dist\/server\/main\.js$/.test(p.trim()) || p.trim() === `${process.execPath} dist/server/main.js`), processes.join('\n'));
    assert.ok(!processes.some((p) => /tsx/.test(p)), processes.join('\n'));

    await writeFile(join(copy.dir, 'views/pages/Over.tsx'), 'export function Over() { throw new Error("tampered"); }\n');
    await writeFile(join(copy.dir, 'src/main.ts'), 'throw new Error("tampered");\n');
    const after = await raw(port, '/over');
    assert.equal(after.status, 200);
    assert.equal(textOf(after.body, 'h1'), 'Over deze site');
  });
});

describe('the project root (one anchor for every path)', () => {
  it('is the nearest folder with a package.json, from src/ and from the bundle alike', () => {
    const root = process.cwd();
    assert.equal(findProjectRoot(join(root, 'src', 'build')), root);
    assert.equal(findProjectRoot(join(root, 'dist', 'server')), root);
  });

  it('refuses a path with no package.json above it', () => {
    assert.throws(() => findProjectRoot('/'), /No package\.json above \/: cannot find the Eiland project root/);
  });
});

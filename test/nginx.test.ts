/**
 * The reference nginx configuration (deploy/nginx-eiland.conf, issue 12): Debian's nginx on
 * loopback, with its own prefix in a temporary folder, in front of two production instances on
 * one PostgreSQL database; the browser suite runs through it (BASE_URL), registration and client
 * navigation included, and both instances serve.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile, chmod } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { freePort } from './helpers/app.js';
import { copyProject, run, startBundle, startProcess, type ProjectCopy, type WatchedProcess } from './helpers/project.js';
import { startPostgres, type TestPostgres } from './helpers/postgres.js';

const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';


describe('two instances behind the reference nginx (issue 12)', { timeout: 300_000 }, () => {
  let project: ProjectCopy;
  let cluster: TestPostgres;
  let instances: WatchedProcess[] = [];
  let nginx: WatchedProcess;
  let prefix: string;
  let base: string;

  before(async () => {
    project = await copyProject({ files: ['package.json', 'dist', 'public'] });
    cluster = await startPostgres();
    const databaseUrl = await cluster.createDatabase();
    const nginxPort = await freePort();
    base = `http://127.0.0.1:${nginxPort}`;
    const env = { DATABASE_URL: databaseUrl, TRUST_PROXY: 'loopback', PUBLIC_ORIGIN: base, FORM_RATE_LIMIT: '10000/1m' };
    const started = await Promise.all([0, 1].map(() => startBundle(project.dir, env)));
    instances = started.map((b) => b.server);
    const ports = started.map((b) => b.port);

    // nginx with its own prefix; the reference file with the ports of this run.
    prefix = await mkdtemp(join(tmpdir(), 'eiland-nginx-'));
    for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) await mkdir(join(prefix, sub));
    await chmod(prefix, 0o755);
    const reference = await readFile('deploy/nginx-eiland.conf', 'utf8');
    const site = reference
      .replace('server 127.0.0.1:3001', `server 127.0.0.1:${ports[0]}`)
      .replace('server 127.0.0.1:3002', `server 127.0.0.1:${ports[1]}`)
      .replace('listen 8080;', `listen 127.0.0.1:${nginxPort};`);
    assert.notEqual(site, reference);
    await writeFile(join(prefix, 'eiland.conf'), site);
    await writeFile(
      join(prefix, 'nginx.conf'),
      `${userInfo().uid === 0 ? 'user root;\n' : ''}daemon off;
worker_processes 1;
error_log ${prefix}/error.log warn;
pid ${prefix}/nginx.pid;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  include ${prefix}/eiland.conf;
}
`,
    );
    await run(NGINX, ['-t', '-p', prefix, '-c', join(prefix, 'nginx.conf')]);
    nginx = startProcess(NGINX, ['-p', prefix, '-c', join(prefix, 'nginx.conf')], { cwd: prefix, env: process.env });
    const until = Date.now() + 10_000;
    while (!(await fetch(`${base}/healthz`).then((r) => r.ok, () => false))) {
      if (Date.now() > until) throw new Error(`nginx did not answer: ${nginx.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  after(async () => {
    await nginx?.stop('SIGQUIT');
    await Promise.all(instances.map((p) => p.stop()));
    await cluster?.remove();
    await project?.remove();
    if (prefix) await rm(prefix, { recursive: true, force: true });
  });

  /** A GET with `Accept-Encoding`, the body as it came (not decompressed). */
  function getRaw(path: string, encoding: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
    return new Promise((resolve, reject) => {
      request(`${base}${path}`, { headers: { 'Accept-Encoding': encoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
  }

  it('compresses HTML with gzip and passes the precompressed assets through', async () => {
    const page = await getRaw('/over', 'gzip');
    assert.equal(page.status, 200);
    assert.equal(page.headers['content-encoding'], 'gzip');
    assert.match(gunzipSync(page.body).toString('utf8'), /<h1>Over deze site<\/h1>/);
    const styles = /href="(\/assets\/styles-[^"]+\.css)"/.exec(gunzipSync(page.body).toString('utf8'))![1]!;
    const asset = await getRaw(styles, 'br');
    assert.equal(asset.headers['content-encoding'], 'br', 'the .br twin Eiland serves');
    assert.match(String(asset.headers['cache-control']), /immutable/);
  });

  it('runs the browser suite through it: pages, registration and client navigation', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, BASE_URL: base };
    delete env.NODE_TEST_CONTEXT;
    const output = await run(process.execPath, ['--import', 'tsx', '--import', './src/env.ts', '--test', '--test-reporter=tap', 'test/e2e/pages.test.ts', 'test/e2e/registration-js.test.ts', 'test/e2e/router.test.ts'], { env });
    assert.match(output, /# fail 0/);
    assert.match(output, /# pass [1-9]\d/);
    // Both instances served some of it.
    for (const instance of instances) assert.match(instance.output(), /"msg":"request completed"/);
  });
});

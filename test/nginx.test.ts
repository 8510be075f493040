/**
 * The reference nginx configuration (deploy/nginx-eiland.conf): Debian's nginx on
 * loopback, with its own prefix in a temporary folder, in front of two production instances on
 * one PostgreSQL database; the registration and router browser suites run through it (BASE_URL),
 * and both instances serve.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createGunzip, gunzipSync } from 'node:zlib';
import { freePort, raw, waitFor } from './helpers/app.js';
import { openForm, postForm, VALID } from './helpers/form.js';
import { startNginx, type TestNginx } from './helpers/nginx.js';
import { BUNDLE_FILES, run, startBundle, useProjectCopy, type WatchedProcess } from './helpers/project.js';
import { lockRegistrations, usePostgres } from './helpers/postgres.js';

const project = useProjectCopy({ files: BUNDLE_FILES });
const cluster = usePostgres();

describe('two instances behind the reference nginx', { timeout: 300_000 }, () => {
  let instances: WatchedProcess[] = [];
  let nginx: TestNginx;
  let base: string;
  let databaseUrl: string;

  before(async () => {
    databaseUrl = await cluster.createDatabase();
    const nginxPort = await freePort();
    base = `http://127.0.0.1:${nginxPort}`;
    const env = { DATABASE_URL: databaseUrl, TRUST_PROXY: 'loopback', PUBLIC_ORIGIN: base, FORM_RATE_LIMIT: '10000/1m' };
    const started = await Promise.all([0, 1].map(() => startBundle(project.dir, env)));
    instances = started.map((b) => b.server);
    const ports = started.map((b) => b.port);

    nginx = await startNginx([ports[0]!, ports[1]!], nginxPort);
  });

  after(async () => {
    await nginx?.remove();
    await Promise.all(instances.map((p) => p.stop()));
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

  it('passes the streamed shell on before the rest, plain and gzip-compressed', async () => {
    // The count waits on a table lock, so the page cannot be whole until it is released.
    const release = await lockRegistrations(databaseUrl);
    const pages: Array<Promise<string>> = [];
    try {
      for (const encoding of ['identity', 'gzip']) {
        let text = '';
        let ended = false;
        let sawShell: () => void = () => undefined;
        const shell = new Promise<void>((resolve) => (sawShell = resolve));
        const done = new Promise<string>((resolve, reject) => {
          request(`${base}/`, { headers: { 'Accept-Encoding': encoding } }, (res) => {
            if (res.headers['content-encoding'] !== (encoding === 'gzip' ? 'gzip' : undefined)) {
              reject(new Error(`asked for ${encoding}, got Content-Encoding ${res.headers['content-encoding']}`));
              return;
            }
            const body = encoding === 'gzip' ? res.pipe(createGunzip()) : res;
            body.on('data', (c: Buffer) => {
              text += c.toString('utf8');
              if (text.includes('Het aantal aanmeldingen is nog niet bekend.')) sawShell();
            });
            body.on('end', () => {
              ended = true;
              resolve(text);
            });
            body.on('error', reject);
          })
            .on('error', reject)
            .end();
        });
        await Promise.race([shell, new Promise((_, reject) => setTimeout(() => reject(new Error(`no shell through nginx (${encoding}): ${text}`)), 5000))]);
        assert.equal(ended, false, 'the shell came while the rest was still being rendered');
        pages.push(done);
      }
    } finally {
      await release();
    }
    for (const page of pages) assert.match(await page, /class="count">Er (?:is|zijn)[^<]*aanmelding[^<]*<\/p>[\s\S]*<\/html>/);
  });

  describe('a DNS name rebound to the site (docs/filter.md §9)', () => {
    const rebound = () => `rebound.example:${nginx.port}`;
    /** A registration made on the public name, and the session of a form opened there. */
    let confirmation: string;
    let session: Awaited<ReturnType<typeof openForm>>;
    before(async () => {
      const site = { port: nginx.port, url: base };
      const posted = await postForm(site, '/aanmelden', { ...VALID, gebruikersnaam: 'herbonden_1' });
      assert.equal(posted.status, 303);
      confirmation = String(posted.headers.location);
      session = await openForm(site, '/aanmelden');
    });

    /** What a page on the rebound name gets for each thing it tries, with these headers of its own. */
    async function attempts(headers: Record<string, string>): Promise<Record<string, number>> {
      const get = async (path: string) => (await raw(nginx.port, path, { headers: { Host: rebound(), ...headers } })).status;
      const post = await postForm({ port: nginx.port, url: `http://${rebound()}` }, '/aanmelden', { ...VALID, gebruikersnaam: 'herbonden_2' }, session, { Host: rebound(), ...headers });
      return { '/': await get('/'), '/aanmelden': await get('/aanmelden'), '/over': await get('/over'), confirmation: await get(confirmation), 'POST /aanmelden': post.status };
    }
    const refused = { '/': 400, '/aanmelden': 400, '/over': 400, confirmation: 400, 'POST /aanmelden': 400 };

    it('gets a 400 for every page, the form post and the confirmation', async () => {
      assert.deepEqual(await attempts({}), refused);
    });

    it('gets the same 400s when it names the public host in X-Forwarded-Host itself', async () => {
      assert.deepEqual(await attempts({ 'X-Forwarded-Host': new URL(base).host, 'X-Forwarded-Proto': 'http' }), refused);
    });

    it('nginx sets X-Forwarded-Host itself: the public name with a forged one is served as the public name', async () => {
      const res = await raw(nginx.port, '/over', { headers: { 'X-Forwarded-Host': 'rebound.example', Forwarded: 'host=rebound.example' } });
      assert.equal(res.status, 200);
      assert.match(res.body, /<h1>Over deze site<\/h1>/);
    });
  });

  it('passes a caller\'s traceparent on: its trace id is on the instance\'s request line', async () => {
    const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${base}/over`, { headers: { traceparent: `00-${trace}-00f067aa0ba902b${i}-01` } });
      assert.equal(res.status, 200);
      await res.text();
    }
    const output = () => instances.map((instance) => instance.output()).join('\n');
    // The instances' logs are written asynchronously: wait for the four lines of the trace.
    await waitFor(() => (output().match(new RegExp(`"traceId":"${trace}"[^\\n]*"msg":"request completed"`, 'g')) ?? []).length >= 4);
    const logged = output();
    for (let i = 0; i < 4; i++) assert.match(logged, new RegExp(`"traceId":"${trace}","spanId":"00f067aa0ba902b${i}"[^\\n]*"msg":"request completed"`));
  });

  /**
   * The browser tests whose requests cross the proxy in a way the suites' own runs do not prove:
   * a form post with its CSRF cookie and the answer's redirect, a server-only 422, page data of a
   * router navigation, a prefetch used by a click, and HTML and page data kept apart on one URL.
   * The rest of those suites (inline validation, hydration, failures injected in the browser) ask
   * nothing of nginx that these do not, and run directly in their own files.
   */
  const THROUGH_THE_PROXY = ['posts a valid form with the data marker', 'shows a server-only 422', 'swaps <main>', 'uses the prefetched data', 'after a client navigation, back and a reload show HTML'];

  it('runs the registration and router tests that cross the proxy through it (the pages suite runs against a deployment in qa-kit.test.ts)', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, BASE_URL: base };
    delete env.NODE_TEST_CONTEXT;
    const names = THROUGH_THE_PROXY.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    const output = await run(process.execPath, ['--import', 'tsx', '--import', './src/env.ts', '--test', '--test-reporter=tap', `--test-name-pattern=${names.join('|')}`, 'test/e2e/registration-js.test.ts', 'test/e2e/router.test.ts'], { env });
    assert.match(output, /# fail 0/);
    for (const name of names) assert.match(output, new RegExp(`^\\s*ok \\d+ - ${name}(?!.*# SKIP)`, 'm'), `${name} ran and passed`);
    // Both instances served some of it.
    for (const instance of instances) assert.match(instance.output(), /"msg":"request completed"/);
  });
});

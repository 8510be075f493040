/**
 * Logs (docs/operations.md §2): one request line per request with its id, route, status and time, at the
 * level its status calls for; assets and probes at debug; long paths cut; every line of a request
 * carrying its id; no cookies, secrets or query strings; nothing forged through user input.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readManifest } from '../src/assets/manifest.js';
import { escapeControl } from '../src/logging.js';
import { testRoutes } from './fixtures/test-routes.js';
import { useApp, waitFor } from './helpers/app.js';
import { LOGGED_PATH_MAX } from '../src/logging.js';

const app = useApp({ extraRoutes: testRoutes, renderTimeoutMs: 100, countRegistrations: () => new Promise(() => {}) });

describe('logs (docs/operations.md §2)', () => {
  it('writes one "request completed" line with reqId, method, path, status, responseTime, route', async () => {
    await app.request('/over?x=geheim', { headers: { 'X-Request-Id': 'regel-1' } });
    const lines = app.logs().filter((l) => l.reqId === 'regel-1' && l.msg === 'request completed');
    assert.equal(lines.length, 1);
    const [line] = lines;
    assert.equal(line?.level, 30);
    assert.equal(line?.method, 'GET');
    assert.equal(line?.path, '/over');
    assert.equal(line?.status, 200);
    assert.equal(line?.route, '/over');
    assert.equal(typeof line?.responseTime, 'number');
    assert.ok(!app.rawLogs().some((l) => l.includes('geheim')), 'no query string in the log');
  });

  it('logs asset and probe requests at debug, under the path as requested', async () => {
    const { router, images } = readManifest('dist/manifest.json');
    // Every excluded path of src/filter/excluded.ts, and a probe: the one table decides.
    const image = `/_image?url=${encodeURIComponent(images.hero!.src)}&w=640`;
    for (const path of [router.file, images.hero!.src, image, '/favicon.ico', '/healthz', '/assets/ontbreekt.js']) {
      const before = app.logs().length;
      await app.request(path);
      // The line is written when the response has finished on the server, which may be just after the client read it all.
      const completed = () => app.logs().slice(before).filter((l) => l.msg === 'request completed');
      await waitFor(() => completed().length > 0, 10_000).catch(() => assert.fail(`${path}: ${JSON.stringify(app.logs().slice(before))}`));
      const lines = completed();
      assert.equal(lines.length, 1, path);
      assert.equal(lines[0]?.path, path.split('?')[0]);
      assert.equal(lines[0]?.level, path === '/assets/ontbreekt.js' ? 40 : 20, path);
    }
  });

  it('cuts a long path at 1024 characters, saying how long it was', async () => {
    const path = `/${'a'.repeat(10_000)}`;
    await app.request(path, { headers: { 'X-Request-Id': 'lang-pad-1' } });
    const line = app.logs().find((l) => l.reqId === 'lang-pad-1' && l.msg === 'request completed');
    assert.equal(line?.path, `${path.slice(0, LOGGED_PATH_MAX)}…[10001 chars]`);
    assert.ok(!app.rawLogs().some((l) => l.includes('a'.repeat(LOGGED_PATH_MAX + 1))), 'no line holds the whole path');
  });

  it('writes a 5xx with its error and stack on the request line', async () => {
    await app.request('/proef/kapot', { headers: { 'X-Request-Id': 'kapot-1' } });
    const [line] = app.logs().filter((l) => l.reqId === 'kapot-1' && l.msg === 'request completed');
    assert.equal(line?.level, 50);
    assert.equal(line?.status, 500);
    assert.match(String((line?.err as { stack?: string } | undefined)?.stack), /\n\s+at /);
  });

  it('gives every line of a request its reqId', async () => {
    // The start page with a never-ending count logs render_aborted, then the request line.
    await app.request('/', { headers: { 'X-Request-Id': 'alle-regels' } });
    const lines = app.logs().filter((l) => l.reqId === 'alle-regels');
    assert.deepEqual(lines.map((l) => l.msg).sort(), ['render_aborted', 'request completed']);
    const form = await app.request('/proef/formulier', {
      method: 'POST',
      headers: { 'X-Request-Id': 'csrf-regels', 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'cross-site' },
      body: 'tekst=a',
    });
    assert.equal(form.status, 403);
    const csrf = app.logs().filter((l) => l.reqId === 'csrf-regels');
    assert.deepEqual(csrf.map((l) => l.msg).sort(), ['csrf_rejected', 'request completed']);
  });

  it('logs 4xx at warn, 5xx at error, probes and assets at debug', async () => {
    const level = async (path: string) => {
      const id = `lvl-${Math.random().toString(36).slice(2)}`;
      await app.request(path, { headers: { 'X-Request-Id': id } });
      return app.logs().find((l) => l.reqId === id && l.msg === 'request completed')?.level;
    };
    assert.equal(await level('/nope'), 40);
    assert.equal(await level('/proef/kapot'), 50);
    assert.equal(await level('/healthz'), 20);
    assert.equal(await level('/readyz'), 20);
    assert.equal(await level('/favicon.ico'), 20);
    assert.equal(await level('/assets/favicon.ico'), 20);
  });

  it('never logs cookies, authorization or set-cookie', async () => {
    await app.request('/proef/formulier', {
      headers: { Cookie: 'eiland.sid=KOEKJE-GEHEIM-1', Authorization: 'Bearer TOKEN-GEHEIM-2' },
    });
    await app.request('/proef/kapot', {
      headers: { Cookie: 'eiland.sid=KOEKJE-GEHEIM-1', Authorization: 'Bearer TOKEN-GEHEIM-2' },
    });
    const all = app.rawLogs().join('\n');
    assert.doesNotMatch(all, /KOEKJE-GEHEIM|TOKEN-GEHEIM|eiland\.csrf=|set-cookie/i);
  });

  it('cannot be forged through a path or a request id', async () => {
    const forged = '{"level":60,"msg":"vervalst"}';
    await app.request(`/x%0A${encodeURIComponent(forged)}%0D%0A${encodeURIComponent(forged)}`);
    await app.request(`/x\u0085\u2028${encodeURIComponent(forged)}`.replace(/[^\x00-\x7f]/g, (c) => encodeURIComponent(c)));
    await app.request('/over', { headers: { 'X-Request-Id': `a\t${forged}` } });
    for (const line of app.rawLogs()) {
      const parsed = JSON.parse(line) as { msg?: string };
      assert.notEqual(parsed.msg, 'vervalst');
    }
  });

  it('escapes control characters in logged user input', () => {
    assert.equal(escapeControl('a\nb\r\u0000c\u007f\u2028'), 'a\\u000ab\\u000d\\u0000c\\u007f\\u2028');
    assert.equal(escapeControl('/gewoon/pad'), '/gewoon/pad');
  });
});

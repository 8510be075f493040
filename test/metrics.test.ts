/**
 * Metrics for operators (docs/operations.md §7): Prometheus text on a listener of its own, scraped by
 * a real Prometheus (Debian's), whose counters move with what the site does.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { readManifest } from '../src/assets/manifest.js';
import { loadConfig } from '../src/config.js';
import { startServer, type RunningServer } from '../src/server.js';
import { imageUrl } from '../protocol/image-config.js';
import { StorageUnavailableError } from '../src/storage/types.js';
import { testRoutes } from './fixtures/test-routes.js';
import { freshAddress, raw, waitFor } from './helpers/app.js';
import { openForm, postForm, VALID } from './helpers/form.js';
import { logCollector } from './helpers/logs.js';
import { PROMTOOL, startPrometheus, type TestPrometheus } from './helpers/prometheus.js';
import { tempStorage, withCount } from './helpers/temp-storage.js';
import { openWire } from './helpers/wire.js';

const SECRET = 'test-secret-test-secret-test-secret-0123';

describe('metrics scraped by Prometheus', { timeout: 60_000 }, () => {
  let running: RunningServer;
  let prometheus: TestPrometheus;
  let site: { port: number; url: string };
  const log = logCollector();
  const cleanup: Array<() => Promise<void>> = [];
  before(async () => {
    const temp = await tempStorage();
    cleanup.push(temp.remove, () => temp.storage.close());
    const cacheDir = await mkdtemp(join(tmpdir(), 'eiland-images-'));
    cleanup.push(() => rm(cacheDir, { recursive: true, force: true }));
    // The count fails as a database that is gone fails: a storage error to count.
    const storage = withCount(temp.storage, () => Promise.reject(new StorageUnavailableError('count', new Error('gone'))));
    const config = loadConfig({ PORT: '0', METRICS_PORT: '0', LOG_LEVEL: 'warn', CSRF_SECRET: SECRET, FORM_RATE_LIMIT: '3/1m', IMAGE_CACHE_DIR: cacheDir });
    running = await startServer(config, { storage, mailDir: temp.mailDir, extraRoutes: testRoutes, logStream: log.stream });
    site = { port: Number(new URL(running.url).port), url: running.url };
    prometheus = await startPrometheus(new URL(running.metricsUrl!).host);
  });
  after(async () => {
    await prometheus?.remove();
    await running?.shutdown('test');
    for (const step of cleanup.reverse()) await step();
  });

  /** The counters' values now (after a fresh scrape), absent series as 0. */
  async function snapshot(queries: Record<string, string>): Promise<Record<string, number>> {
    await prometheus.nextScrape();
    const values = await Promise.all(Object.entries(queries).map(async ([name, query]) => [name, (await prometheus.value(query)) ?? 0] as const));
    return Object.fromEntries(values);
  }

  it('counts requests, renders, images, storage errors and form posts as they happen', async () => {
    const hero = readManifest('dist/manifest.json').images.hero!.src;
    const queries = {
      over: 'http_request_duration_seconds_count{route="/over",method="GET",status_class="2xx"}',
      unmatched: 'http_request_duration_seconds_count{route="unmatched",method="GET",status_class="4xx"}',
      imageRoute: 'http_request_duration_seconds_count{route="/_image",method="GET",status_class="2xx"}',
      shell: 'eiland_renders_total{route="/",outcome="shell"}',
      data: 'eiland_renders_total{route="/over",outcome="data"}',
      gone: 'eiland_renders_total{route="/proef/traag",outcome="client_gone"}',
      miss: 'eiland_image_requests_total{outcome="miss"}',
      hit: 'eiland_image_requests_total{outcome="hit"}',
      notModified: 'eiland_image_requests_total{outcome="not_modified"}',
      refused: 'eiland_image_requests_total{outcome="refused"}',
      storage: 'eiland_storage_errors_total{operation="count"}',
      stored: 'eiland_form_posts_total{form="/aanmelden",outcome="stored"}',
      invalid: 'eiland_form_posts_total{form="/aanmelden",outcome="invalid"}',
      honeypot: 'eiland_form_posts_total{form="/aanmelden",outcome="honeypot"}',
      limited: 'eiland_form_posts_total{form="/aanmelden",outcome="rate_limited"}',
      forbidden: 'eiland_form_posts_total{form="/aanmelden",outcome="forbidden"}',
    };
    const before = await snapshot(queries);

    for (let i = 0; i < 3; i++) assert.equal((await raw(site.port, '/over')).status, 200);
    assert.equal((await raw(site.port, '/over', { headers: { 'X-Eiland-Data': '1' } })).status, 200);
    assert.equal((await raw(site.port, '/nope')).status, 404);
    assert.equal((await raw(site.port, '/')).status, 200);
    // A client that leaves while the loader runs: the render is counted as client_gone.
    const arrived = once(running.server, 'request');
    const aborted = () => log.lines.filter((l) => l.includes('"event":"render_aborted"')).length;
    const abortedBefore = aborted();
    const leaving = await openWire(site.port, 'GET /proef/traag?ms=300 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await arrived;
    leaving.socket.destroy();
    // The render's outcome is counted where its abort is logged.
    await waitFor(() => aborted() > abortedBefore);
    const image = imageUrl(hero, 640);
    const made = await fetch(site.url + image, { headers: { Accept: 'image/webp' } });
    await made.arrayBuffer();
    await (await fetch(site.url + image, { headers: { Accept: 'image/webp' } })).arrayBuffer();
    assert.equal((await fetch(site.url + image, { headers: { Accept: 'image/webp', 'If-None-Match': made.headers.get('etag')! } })).status, 304);
    assert.equal((await fetch(`${site.url}${imageUrl(hero, 641)}`)).status, 400);

    // Four posts from one address against a limit of 3, and one from another site.
    const session = await openForm(site, '/aanmelden', freshAddress());
    assert.equal((await postForm(site, '/aanmelden', VALID, session)).status, 303);
    assert.equal((await postForm(site, '/aanmelden', { ...VALID, naam: '' }, session)).status, 422);
    assert.equal((await postForm(site, '/aanmelden', { ...VALID, bedrijf: 'Spam BV' }, session)).status, 303);
    assert.equal((await postForm(site, '/aanmelden', VALID, session)).status, 429);
    assert.equal((await postForm(site, '/aanmelden', VALID, undefined, { 'Sec-Fetch-Site': 'cross-site' })).status, 403);

    const after = await snapshot(queries);
    const moved = Object.fromEntries(Object.keys(queries).map((name) => [name, after[name]! - before[name]!]));
    assert.deepEqual(moved, {
      over: 4, // three pages and the page data
      unmatched: 1,
      imageRoute: 2,
      shell: 1,
      data: 1,
      gone: 1,
      miss: 1,
      hit: 1,
      notModified: 1,
      refused: 1,
      storage: 1,
      stored: 1,
      invalid: 1,
      honeypot: 1,
      limited: 1,
      forbidden: 1,
    });
  });

  it('has Node’s and the process’s own metrics, and the image jobs gauge', async () => {
    for (const name of ['nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes', 'process_resident_memory_bytes', 'eiland_image_jobs{state="running"}', 'eiland_image_jobs{state="queued"}']) {
      assert.notEqual(await prometheus.value(name), undefined, name);
    }
    assert.ok(((await prometheus.value('sum(nodejs_gc_duration_seconds_count)')) ?? 0) > 0, 'garbage collections are counted');
  });

  it('passes promtool’s format and lint check', async () => {
    const text = await (await fetch(running.metricsUrl!)).text();
    const child = execFile(PROMTOOL, ['check', 'metrics']);
    const done = new Promise<{ code: number | null; out: string }>((resolve) => {
      let out = '';
      child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
      child.on('exit', (code) => resolve({ code, out }));
    });
    child.stdin!.end(text);
    const { out } = await done;
    // promtool lints names too. Its only findings are prom-client's own gauges of active handles,
    // requests and resources, which end in `_total` (kept: dashboards know them by that name).
    const findings = out.split('\n').filter((line) => line.trim() !== '');
    const DEFAULT_GAUGES = /^nodejs_active_(handles|requests|resources)_total non-counter metrics should not have "_total" suffix$/;
    assert.deepEqual(findings.filter((line) => !DEFAULT_GAUGES.test(line.trim())), [], out);
    assert.doesNotMatch(out, /parse|error/i, 'the text format parses');
  });

  it('is served on its own listener only: never on the public port', async () => {
    assert.equal((await raw(site.port, '/metrics')).status, 404);
    const metricsUrl = new URL(running.metricsUrl!);
    assert.equal(metricsUrl.hostname, '127.0.0.1', 'loopback by default');
    assert.equal((await fetch(new URL('/anders', metricsUrl))).status, 404);
    assert.equal((await fetch(metricsUrl, { method: 'POST' })).status, 405);
  });
});

/**
 * The fast path (docs/streaming.md §7): a render cache hit answered beside Express sends what the
 * Express path sends — status, every header in its order, the body — with the request's own values,
 * writes the same log line and metrics, runs the loader once, and leaves everything else to Express.
 * Compared with an app whose Express path answers every request, page by page of the route table,
 * in the ways a page is asked for.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { IncomingMessage, type ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createElement } from 'react';
import { fastPathRoute } from '../src/fast-path.js';
import { createMetrics, type Metrics } from '../src/metrics/index.js';
import { siteRoutes } from '../src/routes/pages.js';
import { FORMS } from './fixtures/forms.js';
import type { AnyPageRoute } from '../src/route-table.js';
import type { Storage } from '../src/storage/types.js';
import { useApp, waitFor, within, type SuiteTestApp } from './helpers/app.js';
import { testRoutes } from './fixtures/test-routes.js';
import type { LogLine } from './helpers/logs.js';
import { REGISTRATION, tempStorage } from './helpers/temp-storage.js';
import { openWire } from './helpers/wire.js';
import { CSRF_FIELD, SUBMISSION_FIELD } from '../protocol/forms.js';
import { postForm } from './helpers/form.js';
import { get, shape, watchPaths, type Answer } from './helpers/paths.js';
import { registrations } from '../src/forms/registration.js';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

/** The ways a page is asked for: each decides something the answer shows. */
const ASKED: Record<string, Record<string, string>> = {
  'a browser': { 'User-Agent': BROWSER },
  'a bot (the whole document)': { 'User-Agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' },
  'a text browser': { 'User-Agent': 'Lynx/2.9.0dev.12 libwww-FM/2.14' },
  'no user agent': {},
  'a request id and trace context': { 'User-Agent': BROWSER, 'X-Request-Id': 'qa-run.42', traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
  'an unusable request id': { 'User-Agent': BROWSER, 'X-Request-Id': 'niet bruikbaar' },
  'https through the trusted proxy': { 'User-Agent': BROWSER, 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '203.0.113.9' },
  'the router (page data)': { 'User-Agent': BROWSER, 'X-Eiland-Data': '1' },
};

/** The request's log line without what differs between two requests (time, id, duration). */
function lineOf(app: SuiteTestApp, answer: Answer): LogLine {
  const reqId = answer.headers.find(([name]) => name === 'x-request-id')?.[1];
  const line = app.logs().find((l) => l.reqId === reqId && (l.msg === 'request completed' || l.msg === 'request aborted'));
  assert.ok(line, `a log line for ${reqId}`);
  const { time: _time, reqId: _id, responseTime, ...rest } = line;
  assert.equal(typeof responseTime, 'number');
  return rest as LogLine;
}

/** A counter's or histogram count's value by labels, as text for a readable diff. */
async function counted(metrics: Metrics): Promise<string[]> {
  const text = await metrics.registry.metrics();
  return text.split('\n').filter((line) => /^(http_request_duration_seconds_count|eiland_render_cache_total|eiland_renders_total)\{/.test(line));
}

let storage: Storage;
let remove: () => Promise<void>;
let loads = 0;
const fastMetrics = createMetrics();
const expressMetrics = createMetrics();
const env = { RENDER_CACHE_VERIFY: '0', TRUST_PROXY: 'loopback' };
const countLoads = () => {
  loads += 1;
  return storage.countRegistrations();
};
/** The storage both apps share, with one registration: made by whichever app starts first. */
let made: Promise<Storage> | undefined;
const shared = () =>
  (made ??= tempStorage().then(async (temp) => {
    ({ storage, remove } = temp);
    await registrations(storage).save(randomUUID(), REGISTRATION);
    return storage;
  }));
const fast = useApp(async () => ({ storage: await shared(), metrics: fastMetrics, countRegistrations: countLoads }), env);
const express = useApp(async () => ({ storage: await shared(), metrics: expressMetrics, fastPath: false }), env);
after(() => remove());

describe('the fast path', () => {
  let fastPaths: Map<string, boolean>;
  let expressPaths: Map<string, boolean>;
  before(() => {
    fastPaths = watchPaths(fast.server);
    expressPaths = watchPaths(express.server);
  });
  const pages = siteRoutes(undefined as never, { limit: 1, windowMs: 1000 }, 365, FORMS).filter(fastPathRoute);

  for (const { path } of pages) {
    describe(path, () => {
      before(async () => {
        // The first answer of each is a miss, rendered and kept.
        for (const headers of Object.values(ASKED)) {
          await get(fast, fastPaths, path, headers);
          await get(express, expressPaths, path, headers);
        }
      });
      for (const [how, headers] of Object.entries(ASKED)) {
        it(`asked by ${how}: the same answer, log line and path as Express's`, async () => {
          const a = await get(fast, fastPaths, path, headers);
          const b = await get(express, expressPaths, path, headers);
          assert.deepEqual([a.viaExpress, b.viaExpress], [false, true], 'a kept page, a form page too, is answered beside Express');
          assert.deepEqual(shape(a), shape(b));
          assert.deepEqual(lineOf(fast, a), lineOf(express, b));
          assert.equal(lineOf(fast, a).render, 'hit');
        });
      }
    });
  }

  it('counts what Express counts: request durations by route, renders, cache results', async () => {
    assert.deepEqual(await counted(fastMetrics), await counted(expressMetrics));
  });

  it('runs the loader once per request, a hit, a miss after new data, or a page handed over', async () => {
    const before = loads;
    const hit = await get(fast, fastPaths, '/', ASKED['a browser']!);
    assert.equal(hit.viaExpress, false);
    await registrations(storage).save(randomUUID(), REGISTRATION);
    const miss = await get(fast, fastPaths, '/', ASKED['a browser']!);
    assert.equal(miss.viaExpress, true, 'a new count is a version the cache does not hold');
    assert.equal(lineOf(fast, miss).render, 'miss');
    assert.equal(loads - before, 2);
    const again = await get(fast, fastPaths, '/', ASKED['a browser']!);
    assert.equal(again.viaExpress, false, 'the new version is kept and answered beside Express');
    assert.equal(loads - before, 3);
  });

  it('gives a form page a token and key that its post is taken with, as the Express path does', async () => {
    const page = await get(fast, fastPaths, '/contact', ASKED['a browser']!);
    assert.equal(page.viaExpress, false, 'rendered beside Express');
    const cookie = page.headers.flatMap(([name, value]) => (name === 'set-cookie' ? [value.split(';')[0]] : [])).join('; ');
    const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page.body)?.[1] ?? '';
    const rendered = { path: '/contact', cookie, token: hidden(CSRF_FIELD), key: hidden(SUBMISSION_FIELD), from: '127.0.0.1' };
    const posted = await postForm(fast, '/contact', { naam: 'Anna', email: 'anna@voorbeeld.nl', onderwerp: 'vraag', bericht: 'Een vraag over de rondleiding.' }, rendered);
    assert.deepEqual([posted.status, posted.headers.location], [303, '/contact/bedankt']);
  });

  it('answers page data revalidated with its ETag as Express does: 304, no body', async () => {
    const data = ASKED['the router (page data)']!;
    const first = await get(fast, fastPaths, '/over', data);
    const etag = first.headers.find(([name]) => name === 'etag')?.[1];
    assert.ok(etag, 'page data carries an ETag');
    const a = await get(fast, fastPaths, '/over', { ...data, 'If-None-Match': etag });
    const b = await get(express, expressPaths, '/over', { ...data, 'If-None-Match': etag });
    assert.deepEqual([a.status, a.viaExpress, a.body, b.status, b.body], [304, false, '', 304, '']);
    assert.deepEqual(shape(a), shape(b));
  });

  it('leaves to Express: another method, a query, a page-data header that is not the marker, a second Host line', async () => {
    const answers = await Promise.all([
      get(fast, fastPaths, '/', {}, 'HEAD'),
      get(fast, fastPaths, '/?uit=1', ASKED['a browser']!),
      get(fast, fastPaths, '/', { ...ASKED['a browser'], 'X-Eiland-Data': '2' }),
    ]);
    assert.deepEqual(
      answers.map((answer) => [answer.status, answer.viaExpress]),
      [
        [200, true],
        [200, true],
        [200, true],
      ],
    );
    const wire = await openWire(fast.port, 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n');
    const twoHosts = await within(wire.response, 5000, 'the answer to two Host lines');
    wire.socket.destroy();
    assert.equal(twoHosts.status, 400);
  });
});

describe('the fast path with PUBLIC_ORIGIN', () => {
  const site = useApp({}, { RENDER_CACHE_VERIFY: '0', TRUST_PROXY: 'loopback', PUBLIC_ORIGIN: 'http://eiland.example' });
  let paths: Map<string, boolean>;
  before(async () => {
    paths = watchPaths(site.server);
    for (let i = 0; i < 2; i++) await get(site, paths, '/', { Host: 'eiland.example' });
  });

  it('answers the public host, and leaves another to Express, which refuses it', async () => {
    const own = await get(site, paths, '/', { Host: 'eiland.example' });
    assert.deepEqual([own.status, own.viaExpress], [200, false]);
    const rebound = await get(site, paths, '/', { Host: 'rebound.example' });
    assert.deepEqual([rebound.status, rebound.viaExpress], [400, true]);
    const forwarded = await get(site, paths, '/', { Host: 'eiland.example', 'X-Forwarded-Host': 'rebound.example' });
    assert.deepEqual([forwarded.status, forwarded.viaExpress], [400, true]);
  });
});

describe('the fast path with the verify guard (docs/streaming.md §6)', () => {
  /** A page whose loader's output changes while its key does not: a count its props' JSON leaves out. */
  const drifting = (): AnyPageRoute => {
    let count = 0;
    return {
      path: '/proef/teller',
      kind: 'static',
      islands: [],
      title: 'Teller',
      description: 'Een proefpagina voor de tests.',
      loader: () => ({ teller: { count: ++count, toJSON: () => 'teller' } }),
      View: ({ teller }: { teller: { count: number } }) => createElement('p', null, `Teller ${teller.count}`),
    };
  };
  const verifying = { RENDER_CACHE_VERIFY: '1' };
  const fastSite = useApp(() => ({ extraRoutes: [drifting()] }), verifying);
  const expressSite = useApp(() => ({ extraRoutes: [drifting()], fastPath: false }), verifying);

  /** The mismatch logged for an answer, without its time and request id. */
  const mismatchOf = (app: SuiteTestApp, answer: Answer) => {
    const reqId = answer.headers.find(([name]) => name === 'x-request-id')?.[1];
    const line = app.logs().find((l) => l.event === 'render_cache_mismatch' && l.reqId === reqId);
    assert.ok(line, `a render_cache_mismatch for ${reqId}`);
    const { level, route, offset, cached, fresh } = line;
    return { level, route, offset, cached: String(cached).slice(0, 1), fresh: String(fresh).slice(0, 1) };
  };

  it('compares a hit it serves with a fresh render: a difference is logged as on the Express path, and the fresh render sent', async () => {
    const fastPaths = watchPaths(fastSite.server);
    const expressPaths = watchPaths(expressSite.server);
    for (const [site, paths] of [[fastSite, fastPaths], [expressSite, expressPaths]] as const) await get(site, paths, '/proef/teller', ASKED['a browser']!);
    const a = await get(fastSite, fastPaths, '/proef/teller', ASKED['a browser']!);
    const b = await get(expressSite, expressPaths, '/proef/teller', ASKED['a browser']!);
    assert.deepEqual([a.viaExpress, b.viaExpress], [false, true], 'the hit answered beside Express');
    assert.deepEqual(mismatchOf(fastSite, a), { level: 50, route: '/proef/teller', offset: mismatchOf(expressSite, b).offset, cached: '1', fresh: '2' });
    assert.deepEqual(mismatchOf(fastSite, a), mismatchOf(expressSite, b));
    assert.match(a.body, /<p>Teller 2<\/p>/, 'the fresh render is what is sent');
    assert.deepEqual(shape(a), shape(b));
    assert.deepEqual(lineOf(fastSite, a), lineOf(expressSite, b));
    assert.equal(lineOf(fastSite, a).render, 'hit');
  });
});

describe('the fast path during a shutdown', () => {
  it('keeps a Connection: close set before it, as a stopping server sets it (src/server.ts)', async () => {
    const paths = watchPaths(fast.server);
    for (let i = 0; i < 2; i++) await get(fast, paths, '/over', {});
    const tellToGo = (req: IncomingMessage, res: ServerResponse) => {
      if (req.headers['x-test'] === 'closing') res.setHeader('Connection', 'close');
    };
    fast.server.prependListener('request', tellToGo);
    try {
      const wire = await openWire(fast.port, 'GET /over HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Test: closing\r\n\r\n');
      const answer = await within(wire.response, 5000, 'the answer');
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.connection, 'close');
      assert.match(answer.body, /<h1>Over deze site<\/h1>/);
      assert.ok((await within(wire.closed, 2000, 'the close of the connection')) >= 0);
      assert.equal(paths.get('closing'), false, 'answered beside Express');
    } finally {
      fast.server.off('request', tellToGo);
    }
  });
});

describe('the fast path failing', () => {
  /** A page whose props have no key: reading them throws, on either path. */
  const broken: AnyPageRoute = {
    path: '/proef/zonder-sleutel',
    kind: 'ssr',
    islands: [],
    title: 'Zonder sleutel',
    description: 'Een proefpagina voor de tests.',
    loader: () => ({
      waarde: {
        toJSON() {
          throw new TypeError('geen sleutel');
        },
      },
    }),
    View: () => null,
  };
  const site = useApp({ extraRoutes: [broken] }, { RENDER_CACHE_VERIFY: '0' });

  it('logs fast_path_failed and leaves the request to Express, which answers it once', async () => {
    const answer = await site.request(broken.path, { headers: { 'X-Request-Id': 'zonder-sleutel' } });
    assert.equal(answer.status, 500);
    const lines = site.logs().filter((l) => l.reqId === 'zonder-sleutel');
    assert.deepEqual(
      lines.map((l) => l.event ?? l.msg),
      ['fast_path_failed', 'request completed'],
    );
    assert.equal(lines[1]!.status, 500);
  });
});

describe('the fast path and a client that leaves', () => {
  const site = useApp({ extraRoutes: testRoutes }, { RENDER_CACHE_VERIFY: '0' });

  it('logs the request as aborted, with its route, as the Express path does', async () => {
    // Kept: the slow page (its loader waits 500 ms) answered twice.
    for (let i = 0; i < 2; i++) assert.equal((await site.request('/proef/traag')).status, 200);
    const wire = await openWire(site.port, 'GET /proef/traag HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: weg-tijdens-laden\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    wire.socket.destroy();
    await waitFor(() => site.logs().some((l) => l.reqId === 'weg-tijdens-laden'), 3000);
    await new Promise((resolve) => setTimeout(resolve, 600));
    const lines = site.logs().filter((l) => l.reqId === 'weg-tijdens-laden');
    assert.deepEqual(
      lines.map((l) => [l.msg, l.status, l.route]),
      [['request aborted', undefined, '/proef/traag']],
    );
  });
});

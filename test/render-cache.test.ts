/**
 * The render cache (docs/streaming.md §6): a settled page is rendered once and served again with
 * this response's own holes filled, the same bytes, status and headers otherwise; its key is its
 * data; what must not be cached is not; and the verify guard catches a view that is not a function
 * of its props.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { createMetrics } from '../src/metrics/index.js';
import { SUBMISSION_FIELD } from '../protocol/forms.js';
import type { PageData } from '../protocol/page-data.js';
import { testRoutes } from './fixtures/test-routes.js';
import { useApp, withApp, type SuiteTestApp } from './helpers/app.js';
import { openForm, postForm, VALID } from './helpers/form.js';
import type { LogLine } from './helpers/logs.js';
import { registrations } from '../src/forms/registration.js';
import { REGISTRATION } from './helpers/temp-storage.js';

const BOT = { 'User-Agent': 'Googlebot/2.1' };
const DATA = { 'X-Eiland-Data': '1' };

/** The `render` of the request line of each response, by request id, in order. */
function renderResults(app: SuiteTestApp, ids: string[]): Array<unknown> {
  const lines = app.logs().filter((l) => l.msg === 'request completed');
  return ids.map((id) => lines.find((l) => l.reqId === id)?.render);
}

/** One response, its body, and the values of the holes it carries. */
async function get(app: SuiteTestApp, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(app.url + path, { headers });
  const body = await res.text();
  const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
  const holes = {
    nonce,
    requestId: res.headers.get('x-request-id') ?? undefined,
    csrfToken: /name="_csrf" value="([^"]+)"/.exec(body)?.[1] ?? /"csrfToken":"([^"]+)"/.exec(body)?.[1],
    submissionKey: new RegExp(`name="${SUBMISSION_FIELD}" value="([^"]+)"`).exec(body)?.[1] ?? /"submissionKey":"([^"]+)"/.exec(body)?.[1],
  };
  // The body with every hole's value written as its name: what a fresh render and a hit share.
  let shape = body;
  for (const [name, value] of Object.entries(holes)) if (value) shape = shape.split(value).join(`{${name}}`);
  return { res, body, holes, shape };
}

/** Headers that belong to one response: its id, nonce, cookies and date. */
const OWN = new Set(['x-request-id', 'content-security-policy', 'set-cookie', 'date', 'etag']);
const sharedHeaders = (res: Response) => Object.fromEntries([...res.headers].filter(([name]) => !OWN.has(name)));

describe('the render cache (docs/streaming.md §6)', () => {
  const metrics = createMetrics();
  const app = useApp({ metrics, extraRoutes: testRoutes });

  it('serves a settled page again with the same bytes, status and headers, and its own nonce, request id, token and submission key', async () => {
    const first = await get(app, '/aanmelden');
    const second = await get(app, '/aanmelden');
    assert.deepEqual(renderResults(app, [first.holes.requestId!, second.holes.requestId!]), ['miss', 'hit']);
    assert.equal(second.res.status, first.res.status);
    assert.deepEqual(sharedHeaders(second.res), sharedHeaders(first.res));
    assert.equal(second.shape, first.shape);
    for (const name of ['nonce', 'requestId', 'csrfToken', 'submissionKey'] as const) {
      assert.ok(first.holes[name] && second.holes[name], `${name} is on both pages`);
      assert.notEqual(second.holes[name], first.holes[name], `${name} is the response's own`);
    }
    // The token on the page is the one the cookie was issued with: a post with it is accepted.
    const form = await openForm(app, '/aanmelden');
    const res = await postForm(app, '/aanmelden', VALID, form);
    assert.equal(res.status, 303);
  });

  it('keys page data, the streamed document and the whole document apart', async () => {
    const results: unknown[] = [];
    for (const headers of [DATA, DATA, BOT, BOT]) {
      const page = await get(app, '/over', headers);
      results.push(renderResults(app, [page.holes.requestId!])[0]);
    }
    assert.deepEqual(results, ['miss', 'hit', 'miss', 'hit']);
    const data = (await (await fetch(`${app.url}/aanmelden`, { headers: DATA })).json()) as PageData;
    const again = (await (await fetch(`${app.url}/aanmelden`, { headers: DATA })).json()) as PageData;
    const props = again.props as { csrfToken: string; submissionKey: string };
    assert.notEqual(props.submissionKey, (data.props as { submissionKey: string }).submissionKey);
    assert.ok(again.html.includes(`value="${props.csrfToken}"`), 'the token in the props is the one in the HTML');
    assert.ok(again.html.includes(`value="${props.submissionKey}"`), 'so is the submission key');
  });

  it('gives / a new key when a registration changes the count: no invalidation', async () => {
    const before = await get(app, '/');
    const hit = await get(app, '/');
    await registrations(app.storage).save(randomUUID(), REGISTRATION);
    const after = await get(app, '/');
    assert.deepEqual(renderResults(app, [before.holes.requestId!, hit.holes.requestId!, after.holes.requestId!]).slice(1), ['hit', 'miss']);
    assert.notEqual(after.shape, before.shape, 'the new count is on the page');
  });

  it('never caches a form post, a route that opts out, or a render whose data is still pending', async () => {
    const form = await openForm(app, '/aanmelden');
    const invalid = await postForm(app, '/aanmelden', { ...VALID, naam: '' }, form);
    assert.equal(invalid.status, 422);
    const pending = await get(app, '/proef/grens');
    const ids = [String(invalid.headers['x-request-id']), pending.holes.requestId!];
    assert.deepEqual(renderResults(app, ids), ['bypass', 'bypass']);
  });

  it('the verify guard catches a view that reads the clock: an error naming the route and the first differing offset', async () => {
    const first = await get(app, '/proef/klok');
    await new Promise((r) => setTimeout(r, 5));
    const second = await get(app, '/proef/klok');
    assert.equal(second.res.status, 200);
    const mismatch = app.logs().find((l: LogLine) => l.event === 'render_cache_mismatch' && l.reqId === second.holes.requestId);
    assert.ok(mismatch, 'the hit is reported');
    assert.equal(mismatch.level, 50);
    assert.equal(mismatch.route, '/proef/klok');
    assert.equal(typeof mismatch.offset, 'number');
    assert.equal(second.body.slice(0, mismatch.offset as number), first.body.slice(0, mismatch.offset as number).split(first.holes.nonce!).join(second.holes.nonce!).split(first.holes.requestId!).join(second.holes.requestId!));
    // The fresh render is what is sent.
    assert.notEqual(/<time>([^<]+)<\/time>/.exec(second.body)?.[1], /<time>([^<]+)<\/time>/.exec(first.body)?.[1]);
    // A pure page raised nothing.
    assert.deepEqual(app.logs().filter((l) => l.event === 'render_cache_mismatch' && l.route !== '/proef/klok'), []);
  });
});

describe('the render cache switched off and on (docs/operations.md §1)', () => {
  it('without the verify guard a hit renders nothing; hits, misses and bypasses are counted', async () => {
    const metrics = createMetrics();
    await withApp({ metrics, extraRoutes: testRoutes }, { RENDER_CACHE_VERIFY: '0' }, async (app) => {
      const value = async (name: string, labels: Record<string, string>) =>
        (await metrics.registry.getSingleMetric(name)!.get()).values.filter((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l)).reduce((sum, v) => sum + v.value, 0);
      const counts = async () => ({
        renders: await value('eiland_renders_total', { route: '/voorwaarden' }),
        hit: await value('eiland_render_cache_total', { result: 'hit' }),
        miss: await value('eiland_render_cache_total', { result: 'miss' }),
        bypass: await value('eiland_render_cache_total', { result: 'bypass' }),
      });
      // A render is counted when its response closes, just after the client has read it.
      const settled = async (expected: Awaited<ReturnType<typeof counts>>) => {
        for (let i = 0; i < 100 && JSON.stringify(await counts()) !== JSON.stringify(expected); i++) await new Promise((r) => setTimeout(r, 10));
        assert.deepEqual(await counts(), expected);
      };
      await (await fetch(`${app.url}/voorwaarden`)).text();
      await settled({ renders: 1, hit: 0, miss: 1, bypass: 0 });
      await (await fetch(`${app.url}/voorwaarden`)).text();
      await settled({ renders: 1, hit: 1, miss: 1, bypass: 0 });
      await (await fetch(`${app.url}/proef/grens`)).text();
      await settled({ renders: 1, hit: 1, miss: 1, bypass: 1 });
    });
  });

  it('RENDER_CACHE_MAX_BYTES=0: every page is rendered, and logged as a bypass', () =>
    withApp({}, { RENDER_CACHE_MAX_BYTES: '0' }, async (app) => {
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) ids.push((await fetch(`${app.url}/over`)).headers.get('x-request-id')!);
      assert.deepEqual(renderResults(app, ids), ['bypass', 'bypass']);
    }));

  it('the confirmation page opts out: it shows a person\u2019s data', () =>
    withApp({}, async (app) => {
      const form = await openForm(app, '/aanmelden');
      const res = await postForm(app, '/aanmelden', VALID, form);
      const location = String(res.headers.location);
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) ids.push((await fetch(app.url + location)).headers.get('x-request-id')!);
      assert.deepEqual(renderResults(app, ids), ['bypass', 'bypass']);
    }));
});

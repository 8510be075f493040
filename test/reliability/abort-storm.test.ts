/**
 * Client-abort storm (docs/operations.md §10, docs/streaming.md §4): 1000 requests to the streaming start page, each
 * aborted once its first chunk (the shell) has arrived → no error logs, the heap back near its
 * baseline after a forced collection, no leaked sockets or timers. Run with `--expose-gc`
 * (`npm run test:reliability`).
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, it } from 'node:test';
import { raw, useApp, waitFor } from '../helpers/app.js';

const REQUESTS = 1000;
const CONCURRENCY = 50;
/** What the heap may keep over its baseline after the storm and a full collection. */
const HEAP_SLACK_BYTES = 8 * 1024 * 1024;
/** The registration count arrives this late, so the shell goes first and the abort lands mid-stream,
 * even while another suite keeps both cores busy (`npm run test:reliability` runs two at a time). */
const COUNT_DELAY_MS = 250;

/** GETs a path and destroys the connection on the first body chunk; resolves with whether one came. */
function abortAfterFirstChunk(port: number, path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.once('data', () => {
        req.destroy();
        resolve(true);
      });
      res.once('end', () => resolve(false));
    });
    req.on('error', () => resolve(false)); // after the destroy above this changes nothing; before it, a failure
    req.end();
  });
}

/** Sockets, servers and timers this process holds, by kind. */
function handles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

async function collectedHeap(): Promise<number> {
  const gc = globalThis.gc;
  assert.ok(gc, 'run with --expose-gc (npm run test:reliability)');
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage().heapUsed;
}

describe('a storm of aborted streaming requests', { timeout: 120_000 }, () => {
  const app = useApp({ countRegistrations: () => new Promise((r) => setTimeout(() => r(7), COUNT_DELAY_MS)) }, { LOG_LEVEL: 'info' });

  it(`${REQUESTS} aborts after the first chunk: no error log, heap within ${HEAP_SLACK_BYTES / 1048576} MB of its baseline, no leaked handles`, async (t) => {
    // 100 whole pages first, as many at a time as the storm sends, so the baseline is taken warm.
    for (let round = 0; round < 100 / CONCURRENCY; round++) {
      const pages = await Promise.all(Array.from({ length: CONCURRENCY }, () => raw(app.port, '/')));
      for (const page of pages) assert.match(page.body, /<\/html>\s*$/);
    }
    // The warm-up's sockets closed: the baseline holds none of them.
    await waitFor(() => handles().TCPSocketWrap === undefined, 5000).catch(() => undefined);
    const baselineHandles = handles();
    assert.equal(baselineHandles.TCPSocketWrap, undefined, 'no connection open before the storm');
    const baselineHeap = await collectedHeap();
    const logsBefore = app.logs().length;

    let next = 0;
    let aborted = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < REQUESTS) {
          next++;
          if (await abortAfterFirstChunk(app.port, '/')) aborted++;
        }
      }),
    );
    assert.equal(aborted, REQUESTS, 'every request was cut after its first chunk');

    // Each request gets its one line, with the status its head had carried (docs/operations.md
    // §2): `request aborted` when the reset reached the server before the response ended, which
    // the server does not control on a busy machine (the page may be whole by then), else
    // `request completed`. Then the renders end and nothing of the storm may remain.
    const lines = () => app.logs().slice(logsBefore).filter((l) => (l.msg === 'request aborted' || l.msg === 'request completed') && l.status === 200);
    await waitFor(() => lines().length >= REQUESTS, 20_000);
    assert.equal(lines().length, REQUESTS, 'one line a request');
    await waitFor(() => JSON.stringify(handles()) === JSON.stringify(baselineHandles), 5000).catch(() => undefined);
    const storm = app.logs().slice(logsBefore);
    assert.deepEqual(
      storm.filter((l) => l.level >= 50),
      [],
      'no error logs',
    );
    assert.ok(storm.some((l) => l.event === 'render_aborted'), 'the aborts reached the renderer');
    assert.ok(lines().some((l) => l.msg === 'request aborted'), 'and were logged as aborts');
    assert.deepEqual(handles(), baselineHandles, 'no sockets or timers left over');
    const heap = await collectedHeap();
    t.diagnostic(`heap after a full collection: ${(baselineHeap / 1048576).toFixed(1)} MB before, ${(heap / 1048576).toFixed(1)} MB after`);
    assert.ok(heap - baselineHeap < HEAP_SLACK_BYTES, `heap ${((heap - baselineHeap) / 1048576).toFixed(1)} MB over its baseline of ${(baselineHeap / 1048576).toFixed(1)} MB`);
    // And it still serves whole pages.
    assert.match((await raw(app.port, '/')).body, /<\/html>\s*$/);
  });
});

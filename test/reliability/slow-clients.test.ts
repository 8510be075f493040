/**
 * Slow clients (docs/operations.md §6, §10; timeouts: headers 10 s, request 30 s, checked every
 * 2 s): 200 connections sending their headers a byte a second and 50 sending a form body a
 * byte a second are closed by the server's own timeouts, each post logged once with the 408 it
 * got, while normal requests keep their usual latency. Against the production bundle.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freshAddress, waitFor } from '../helpers/app.js';
import { BUNDLE_FILES, startBundle, useProcess, useProjectCopy } from '../helpers/project.js';
import { openWire, readByServer, type WireRequest } from '../helpers/wire.js';

const SLOW_HEADERS = 200;
const SLOW_BODIES = 50;
const CHECK_INTERVAL_MS = 2000;
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;

/** Latencies of `count` sequential GETs, in ms. */
async function latencies(url: string, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await fetch(url);
    assert.equal(res.status, 200);
    await res.text();
    out.push(performance.now() - started);
  }
  return out;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Sends one byte of `text` a second on the request until the connection closes. */
function trickle(wire: WireRequest, text: string): void {
  let i = 0;
  const timer = setInterval(() => {
    if (wire.socket.destroyed || i >= text.length) clearInterval(timer);
    else wire.socket.write(text[i++]!);
  }, 1000);
  void wire.closed.then(() => clearInterval(timer));
}

const project = useProjectCopy({ files: BUNDLE_FILES });

describe('slow clients', { timeout: 120_000 }, () => {
  const bundle = useProcess(() => startBundle(project.dir));

  it(`${SLOW_HEADERS} slow header senders and ${SLOW_BODIES} slow body senders are cut by the timeouts; others are served as usual`, async (t) => {
    const page = `${bundle.url}/over`;
    await latencies(page, 20); // warm-up
    const usual = median(await latencies(page, 40));

    const host = `Host: 127.0.0.1:${bundle.port}\r\n`;
    const slowHeads = await Promise.all(Array.from({ length: SLOW_HEADERS }, () => openWire(bundle.port, `GET /over HTTP/1.1\r\n${host}`)));
    for (const wire of slowHeads) trickle(wire, `X-Langzaam: ${'x'.repeat(60)}\r\n`);
    const body = 'naam=Anna&email=anna%40voorbeeld.nl&gebruikersnaam=anna_1&landcode=NL';
    const head = `POST /aanmelden HTTP/1.1\r\n${host}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length + 100}\r\n\r\n`;
    const slowBodies = await Promise.all(Array.from({ length: SLOW_BODIES }, () => openWire(bundle.port, head, freshAddress())));
    for (const wire of slowBodies) trickle(wire, body);

    // While all 250 hold their connections (the server has read what each sent so far), a normal
    // visitor is served as fast as before.
    await readByServer(bundle.port);
    const during = median(await latencies(page, 40));
    t.diagnostic(`median latency of /over: ${usual.toFixed(1)} ms usually, ${during.toFixed(1)} ms with 250 slow clients`);
    assert.ok(during <= usual * 3 + 20, `median ${during.toFixed(1)} ms under slow clients against ${usual.toFixed(1)} ms usually`);

    const headerCloses = await Promise.all(slowHeads.map((w) => w.closed));
    for (const ms of headerCloses) {
      assert.ok(ms >= HEADERS_TIMEOUT_MS - 100 && ms <= HEADERS_TIMEOUT_MS + CHECK_INTERVAL_MS + 1500, `slow headers closed after ${ms} ms`);
    }
    const bodyCloses = await Promise.all(slowBodies.map((w) => w.closed));
    t.diagnostic(`closed after ${Math.min(...headerCloses)}–${Math.max(...headerCloses)} ms (headers), ${Math.min(...bodyCloses)}–${Math.max(...bodyCloses)} ms (bodies)`);
    for (const ms of bodyCloses) {
      assert.ok(ms >= REQUEST_TIMEOUT_MS - 100 && ms <= REQUEST_TIMEOUT_MS + CHECK_INTERVAL_MS + 1500, `slow body closed after ${ms} ms`);
    }
    for (const wire of [...slowHeads, ...slowBodies]) assert.equal((await wire.response).status, 408, 'told why: 408');
    assert.doesNotMatch(bundle.server.output(), /"level":(50|60)/, 'no error logs');
    // Each post the server answered with its own 408 is logged once, with that status, and
    // nothing was rendered for it (docs/operations.md §2).
    const lines = () => bundle.server.output().split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
    await waitFor(() => lines().filter((line) => line.method === 'POST').length >= SLOW_BODIES, 5000).catch(() => undefined); // the log catches up
    const posts = lines().filter((line) => line.method === 'POST');
    assert.equal(posts.length, SLOW_BODIES, 'one line per post');
    assert.deepEqual(new Set(posts.map((line) => `${line.msg} ${line.status} ${line.level}`)), new Set(['request completed 408 40']));
    assert.deepEqual(lines().filter((line) => line.event === 'render_aborted'), []);
    assert.ok(median(await latencies(page, 20)) <= usual * 3 + 20, 'and served as usual afterwards');
  });
});

/**
 * The render cache keeps its word (docs/streaming.md §6): what it counts against its bound is what
 * its entries cost in the heap, for pages of one-byte and of two-byte text alike, and a new version
 * of a page takes the place of the old one.
 */
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, it } from 'node:test';
import { createMetrics } from '../src/metrics/index.js';
import { createRenderCache, renderKey } from '../src/render/cache.js';
import { PLACEHOLDERS, toTemplate } from '../src/render/holes.js';
import { useApp } from './helpers/app.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The heap in use after full collections. */
function heapUsed(): number {
  for (let i = 0; i < 4; i++) gc();
  return process.memoryUsage().heapUsed;
}

/** A page as the renderer's output arrives: chunks decoded from UTF-8 and joined. */
function page(i: number, text: string): string {
  let html = '';
  const chunks = [`<!DOCTYPE html><html lang="nl"><head><title>Pagina ${i}</title><script nonce="${PLACEHOLDERS.nonce}">0</script></head><body>`, text.repeat(40), `<p>${i}</p><meta name="eiland-request" content="${PLACEHOLDERS.requestId}"></body></html>`];
  for (const chunk of chunks) html += Buffer.from(chunk).toString('utf8');
  return html;
}

const key = (i: number) => renderKey({ route: '/', path: `/pagina/${i}`, buildId: 'ABCDEFGH', mode: 'stream', status: 200, title: `Pagina ${i} - Eiland`, props: JSON.stringify({ aantal: i }) });

describe('the render cache’s bound', () => {
  for (const [kind, text] of [
    ['one-byte text (Latin-1: é, ë)', 'Een café op het eiland, één keer per week. '],
    ['two-byte text (’, —, …)', 'Het eiland’s haven — open van mei tot september… '],
  ] as const) {
    it(`counts what its entries cost in the heap, within 15 %, for ${kind}`, (t) => {
      const bound = 8 * 1024 * 1024;
      const cache = createRenderCache({ maxBytes: bound, verify: false });
      const before = heapUsed();
      for (let i = 0; cache.size().bytes < bound * 0.95; i++) cache.set(key(i), toTemplate(page(i, text)));
      const cost = heapUsed() - before;
      const { bytes, entries } = cache.size();
      assert.ok(cache.get(key(0)), 'the first entry is still held while measuring');
      t.diagnostic(`${entries} entries: counted ${(bytes / 1048576).toFixed(2)} MiB, ${(cost / 1048576).toFixed(2)} MiB in the heap`);
      assert.ok(Math.abs(cost - bytes) <= bytes * 0.15, `${entries} entries counted ${(bytes / 1048576).toFixed(2)} MiB, cost ${(cost / 1048576).toFixed(2)} MiB in the heap`);
    });
  }

  it('keeps one version of a page: a new one replaces the old at once', () => {
    const cache = createRenderCache({ maxBytes: 1024 * 1024, verify: false });
    const version = (count: number) => renderKey({ route: '/', path: '/', buildId: 'ABCDEFGH', mode: 'stream', status: 200, title: 'Eiland', props: JSON.stringify({ aantal: count }) });
    cache.set(version(1), toTemplate(page(1, 'a')));
    const one = cache.size();
    cache.set(version(2), toTemplate(page(2, 'a')));
    assert.deepEqual(cache.size(), one, 'the same entries and bytes after the second version');
    assert.equal(cache.get(version(1)), undefined, 'the old version is gone');
    assert.ok(cache.get(version(2)), 'the new one is served');
    cache.set(renderKey({ route: '/', path: '/', buildId: 'ABCDEFGH', mode: 'data', status: 200, title: 'Eiland', props: '{}' }), toTemplate(page(3, 'a')));
    assert.equal(cache.size().entries, 2, 'page data is a page of its own');
  });
});

describe('the render cache of a running app', () => {
  const metrics = createMetrics();
  let registrations = 0;
  const app = useApp({ metrics, countRegistrations: async () => registrations });
  const gauge = async (name: string) => (await metrics.registry.getSingleMetric(name)!.get()).values[0]!.value;

  it('holds one version of `/` in each way it is sent, however often its count changes, and reports its size', async () => {
    const ways: Array<Record<string, string>> = [{}, { 'User-Agent': 'Googlebot/2.1' }, { 'X-Eiland-Data': '1' }];
    for (registrations = 2; registrations < 22; registrations++) {
      for (const headers of ways) {
        const res = await app.request('/', { headers });
        assert.equal(res.status, 200);
        assert.ok(res.body.includes(`Er zijn ${registrations} aanmeldingen.`), 'the current count is shown');
      }
    }
    assert.equal(await gauge('eiland_render_cache_entries'), ways.length, 'one entry for each way, not one for each count');
    const bytes = await gauge('eiland_render_cache_bytes');
    assert.ok(bytes > 0 && bytes < 100_000, `${bytes} bytes`);
  });
});

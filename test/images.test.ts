/**
 * `GET /_image` serves variants (docs/images.md §4–§6): widths, never enlarged, format by
 * `Accept`, strong ETags and 304, cache headers by source, the disk cache that spares sharp,
 * bounded concurrency, the debug line per image, and refusals that are never cached. (The disk
 * cache's bound and sharing: image-cache.test.ts; sharp loaded only for images: sharp-loading.test.ts.)
 */
import assert from 'node:assert/strict';
import { readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import sharp from 'sharp';
import { useApp, waitFor, withApp } from './helpers/app.js';
import { countingOptimizer, getImage, hero, PHOTO, useImageApp } from './helpers/images.js';
import { sharpOptimizer, type Optimizer } from '../src/images/optimizer.js';
import { IMAGE_WIDTHS, imageUrl } from '../protocol/image-config.js';

/** A write a crash interrupted (a minute ago and more): removed when the cache first opens, never served. */
async function crashedWrite(cacheDir: string): Promise<void> {
  const crashed = join(cacheDir, `${'a'.repeat(64)}.webp.123-abcd.tmp`);
  await writeFile(crashed, 'half');
  const minutesAgo = new Date(Date.now() - 120_000);
  await utimes(crashed, minutesAgo, minutesAgo);
}

describe('GET /_image: variants', () => {
  const optimizer = countingOptimizer();
  const served = useImageApp({ imageOptimizer: optimizer }, {}, crashedWrite);
  const { app } = served;

  it('answers each configured width no wider than asked and never wider than the source', async () => {
    for (const width of IMAGE_WIDTHS) {
      const { res, body } = await getImage(app, imageUrl(PHOTO, width), { Accept: 'image/webp' });
      assert.equal(res.status, 200, `w=${width}`);
      const meta = await sharp(body).metadata();
      assert.equal(meta.width, Math.min(width, 1000), `w=${width}`);
      assert.equal(meta.height, Math.round(Math.min(width, 1000) / 2), `w=${width}: aspect kept`);
    }
  });

  it('negotiates the format: WebP by Accept, else the source type; AVIF only when configured', async () => {
    const cases: [accept: string, type: string][] = [
      ['image/avif,image/webp,*/*', 'image/webp'],
      ['image/webp', 'image/webp'],
      ['*/*', 'image/png'],
      ['image/*', 'image/png'],
      ['image/webp;q=0, */*', 'image/png'],
      ['', 'image/png'],
    ];
    for (const [accept, type] of cases) {
      const { res, body } = await getImage(app, imageUrl(PHOTO, 640), accept ? { Accept: accept } : {});
      assert.equal(res.headers.get('content-type'), type, `Accept: ${accept}`);
      assert.equal((await sharp(body).metadata()).format, type.slice(6), `Accept: ${accept}`);
      assert.equal(res.headers.get('vary'), 'Accept');
    }
    const jpeg = await getImage(app, imageUrl('/assets/images/photo.jpg', 640), { Accept: '*/*' });
    assert.equal(jpeg.res.headers.get('content-type'), 'image/jpeg');
  });

  it('sends a strong ETag per variant and 304 for If-None-Match', async () => {
    const first = await getImage(app, imageUrl(PHOTO, 750), { Accept: 'image/webp' });
    const etag = first.res.headers.get('etag')!;
    assert.match(etag, /^"[A-Za-z0-9_-]+"$/, 'strong');
    const again = await getImage(app, imageUrl(PHOTO, 750), { Accept: 'image/webp', 'If-None-Match': etag });
    assert.equal(again.res.status, 304);
    assert.equal(again.body.length, 0);
    assert.equal(again.res.headers.get('etag'), etag);
    const listed = await getImage(app, imageUrl(PHOTO, 750), { Accept: 'image/webp', 'If-None-Match': `"other", ${etag}` });
    assert.equal(listed.res.status, 304);
    const png = await getImage(app, imageUrl(PHOTO, 750), { Accept: '*/*', 'If-None-Match': etag });
    assert.equal(png.res.status, 200, 'another format is another variant');
    assert.notEqual(png.res.headers.get('etag'), etag);
    const quality = await getImage(app, imageUrl(PHOTO, 750, 50), { Accept: 'image/webp', 'If-None-Match': etag });
    assert.equal(quality.res.status, 200, 'another quality is another variant');
  });

  it('caches content-hashed sources for a year and revalidates the others', async () => {
    const built = await getImage(app, imageUrl(hero().src, 640), { Accept: 'image/webp' });
    assert.equal(built.res.status, 200);
    assert.equal(built.res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    const plain = await getImage(app, imageUrl(PHOTO, 640), { Accept: 'image/webp' });
    assert.equal(plain.res.headers.get('cache-control'), 'public, max-age=0, must-revalidate');
  });

  it('answers with a strict CSP, nosniff and an inline disposition with a safe file name', async () => {
    const { res } = await getImage(app, imageUrl(hero().src, 828), { Accept: 'image/webp' });
    assert.equal(res.headers.get('content-security-policy'), "default-src 'none'");
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.match(res.headers.get('content-disposition')!, /^inline; filename="hero-[A-Z2-7]{8}\.webp"$/);
    assert.equal(res.headers.get('x-request-id'), null, 'outside the filter: no request id header');
    assert.equal(res.headers.get('set-cookie'), null);
  });

  it('serves a second request for a variant from the disk cache without calling sharp', async () => {
    const url = imageUrl(PHOTO, 1080, 60);
    const before = optimizer.transforms;
    const logged = app.logs().length;
    const first = await getImage(app, url, { Accept: 'image/webp' });
    assert.equal(optimizer.transforms, before + 1);
    const second = await getImage(app, url, { Accept: 'image/webp' });
    assert.equal(optimizer.transforms, before + 1, 'no second transform');
    assert.deepEqual(second.body, first.body);
    const lines = app.logs().slice(logged).filter((l) => l.event === 'image' && l.url === PHOTO && l.width === 1080);
    assert.deepEqual(
      lines.map((l) => l.cache),
      ['miss', 'hit'],
    );
    assert.equal(lines[0]!.level, 20, 'debug');
    assert.equal(lines[0]!.format, 'image/webp');
    assert.equal(typeof lines[0]!.sharpMs, 'number');
    const names = (await readdir(served.cacheDir)).filter((n) => !n.endsWith('.tmp'));
    assert.ok(names.length > 0);
    assert.deepEqual((await readdir(served.cacheDir)).filter((n) => n.endsWith('.tmp')), [], 'no temporary file left, the crashed one removed');
  });

  it('makes one variant once when it is asked for many times at once', async () => {
    const url = imageUrl(PHOTO, 1200, 61);
    const before = optimizer.transforms;
    const answers = await Promise.all(Array.from({ length: 5 }, () => getImage(app, url, { Accept: 'image/webp' })));
    assert.deepEqual(
      answers.map((a) => a.res.status),
      [200, 200, 200, 200, 200],
    );
    assert.equal(optimizer.transforms, before + 1);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const res = await fetch(app.url + imageUrl(PHOTO, 640), { method: 'HEAD', headers: { Accept: 'image/webp' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/webp');
    assert.ok(Number(res.headers.get('content-length')) > 0);
    assert.equal((await res.arrayBuffer()).byteLength, 0);
  });
});

describe('GET /_image: AVIF when configured', () => {
  const app = useApp({}, { IMAGE_FORMATS: 'image/avif,image/webp' });

  it('prefers AVIF, then WebP, by Accept', async () => {
    const avif = await getImage(app, imageUrl(hero().src, 640), { Accept: 'image/avif,image/webp,*/*' });
    assert.equal(avif.res.headers.get('content-type'), 'image/avif');
    assert.equal((await sharp(avif.body).metadata()).format, 'heif');
    const webp = await getImage(app, imageUrl(hero().src, 640), { Accept: 'image/webp,*/*' });
    assert.equal(webp.res.headers.get('content-type'), 'image/webp');
  });
});

describe('GET /_image: bounded concurrency', () => {
  const app = useApp();

  /** The time to GET / in ms. */
  async function pageTime(): Promise<number> {
    const started = performance.now();
    const res = await fetch(`${app.url}/`);
    await res.text();
    assert.equal(res.status, 200);
    return performance.now() - started;
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

  it('a burst of 50 cold requests leaves / answering within its usual latency, and the excess gets 503 with Retry-After', async () => {
    for (let i = 0; i < 5; i++) await pageTime(); // warm
    const usual: number[] = [];
    for (let i = 0; i < 10; i++) usual.push(await pageTime());
    // 50 distinct variants of the 3840-pixel hero: cold, and the heaviest work there is.
    const variants = IMAGE_WIDTHS.flatMap((w) => [70, 71, 72, 73].map((q) => imageUrl(hero().src, w, q))).slice(0, 50);
    const burst = Promise.all(variants.map((url) => fetch(app.url + url, { headers: { Accept: 'image/webp' } }).then(async (r) => ({ status: r.status, retry: r.headers.get('retry-after'), body: await r.arrayBuffer() }))));
    const during: number[] = [];
    for (let i = 0; i < 10; i++) during.push(await pageTime());
    const answers = await burst;
    assert.ok(
      answers.every((a) => a.status === 200 || a.status === 503),
      `statuses ${answers.map((a) => a.status)}`,
    );
    const refused = answers.filter((a) => a.status === 503);
    assert.ok(refused.length > 0, 'beyond the queue, 503');
    assert.ok(
      refused.every((a) => a.retry === '2'),
      'with Retry-After',
    );
    // Generous: the page shares two cores with the images, yet is not queued behind them.
    assert.ok(median(during) <= median(usual) * 4 + 40, `/ took ${median(during).toFixed(1)} ms (median) during the burst, ${median(usual).toFixed(1)} ms before`);
  });
});

/** The real optimizer, whose transforms wait until `open()` is called. */
function gatedOptimizer(): Optimizer & { open(): void } {
  const real = sharpOptimizer();
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return {
    open,
    inspect: (data) => real.inspect(data),
    transform: async (data, t) => {
      await gate;
      return real.transform(data, t);
    },
  };
}

describe('GET /_image: refusals are never cached', () => {
  const optimizer = gatedOptimizer();
  // Registered first, so it runs first: the held transforms go on before the app closes.
  after(() => optimizer.open());
  const refused = useImageApp({ imageOptimizer: optimizer }, { IMAGE_JOBS: '1' });
  const { app } = refused;

  it('a full queue answers 503 with no-store and no ETag, also to a conditional request for a variant it cannot serve now', async () => {
    // The ETag a served variant would have, learnt from a second app on its own cache.
    const wanted = imageUrl(PHOTO, 640, 33);
    const etag = await withApp({ publicDir: refused.publicDir }, { IMAGE_JOBS: '1' }, async (other) => (await getImage(other, wanted, { Accept: 'image/webp' })).res.headers.get('etag')!);
    assert.match(etag, /^"/);

    // 1 job running (held at the gate) and 8 waiting: the queue is full.
    const held = IMAGE_WIDTHS.slice(0, 9).map((w) => fetch(app.url + imageUrl(PHOTO, w, 90), { headers: { Accept: 'image/webp' } }));
    await waitFor(() => false, 300).catch(() => undefined);
    const conditional = await getImage(app, wanted, { Accept: 'image/webp', 'If-None-Match': etag });
    const star = await getImage(app, imageUrl(PHOTO, 750, 34), { Accept: 'image/webp', 'If-None-Match': '*' });
    for (const { res } of [conditional, star]) {
      assert.equal(res.status, 503, 'not 304: the variant is not served now');
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(res.headers.get('etag'), null);
      assert.equal(res.headers.get('retry-after'), '2');
    }
    optimizer.open();
    assert.deepEqual((await Promise.all(held)).map((r) => r.status), Array(9).fill(200));
    // Recovered: the same conditional request is a 304 now that the variant exists.
    assert.equal((await getImage(app, wanted, { Accept: 'image/webp', 'If-None-Match': etag })).res.status, 304);
    const shed = app.logs().filter((l) => l.msg === 'request completed' && l.status === 503);
    assert.equal(shed.length, 2);
    for (const line of shed) {
      assert.equal(line.level, 40, 'load shedding is a warning');
      assert.equal(line.err, undefined, 'without a stack');
    }
  });

  it('4xx refusals carry no-store and no ETag, and If-None-Match: * never turns them into a 304', async () => {
    optimizer.open();
    const cases: [url: string, status: number][] = [
      [imageUrl('/assets/images/drawing.svg', 640), 400],
      [imageUrl('/assets/images/drawing-svg.png', 640), 400],
      [imageUrl('/assets/images/notes.jpg', 640), 400],
      [imageUrl('/assets/images/truncated.jpg', 640), 400],
      [imageUrl('/assets/images/ontbreekt.png', 640), 404],
      [imageUrl(PHOTO, 641), 400],
    ];
    for (const [url, status] of cases) {
      for (const headers of [{}, { 'If-None-Match': '*' }] as Record<string, string>[]) {
        const { res } = await getImage(app, url, { Accept: 'image/webp', ...headers });
        assert.equal(res.status, status, `${url} ${JSON.stringify(headers)}`);
        assert.equal(res.headers.get('cache-control'), 'no-store', url);
        assert.equal(res.headers.get('etag'), null, url);
      }
    }
  });

  it('a slash after the file name is a 404, not the file', async () => {
    optimizer.open();
    assert.equal((await getImage(app, imageUrl(PHOTO, 640), { Accept: 'image/webp' })).res.status, 200);
    for (const path of [`${PHOTO}/`, `${PHOTO}/x`]) {
      const { res } = await getImage(app, imageUrl(path, 640), { Accept: 'image/webp' });
      assert.equal(res.status, 404, path);
      assert.equal(res.headers.get('etag'), null);
    }
  });
});

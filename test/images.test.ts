/**
 * `GET /_image` serves variants (product.md §10, issue 10): widths, never enlarged, format by
 * `Accept`, strong ETags and 304, cache headers by source, a bounded disk cache that spares
 * sharp, bounded concurrency, the debug line per image, and sharp loaded only for images.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { startApp, waitFor, type TestApp } from './helpers/app.js';
import { imageFixtures, type ImageFixtures } from './helpers/images.js';
import { copyProject, startBundle, type ProjectCopy } from './helpers/project.js';
import { readManifest } from '../src/assets/manifest.js';
import { sharpOptimizer, type Optimizer } from '../src/images/optimizer.js';
import { IMAGE_WIDTHS, imageUrl } from '../protocol/image-config.js';

const PHOTO = '/assets/images/photo.png'; // 1000 × 500, public: not content-hashed
const hero = () => readManifest('dist/manifest.json').images.hero!; // 3840 × 1920, built: content-hashed

/** The real sharp optimizer, counting the variants it makes. */
function countingOptimizer(): Optimizer & { transforms: number } {
  const real = sharpOptimizer();
  const spy = {
    transforms: 0,
    inspect: (data: Buffer) => real.inspect(data),
    transform: (data: Buffer, t: Parameters<Optimizer['transform']>[1]) => {
      spy.transforms += 1;
      return real.transform(data, t);
    },
  };
  return spy;
}

async function get(app: TestApp, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(app.url + path, { headers });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

async function folderBytes(dir: string): Promise<{ bytes: number; names: string[] }> {
  const names = await readdir(dir);
  const sizes = await Promise.all(names.map(async (n) => (await stat(join(dir, n))).size));
  return { bytes: sizes.reduce((a, b) => a + b, 0), names };
}

describe('GET /_image: variants', () => {
  let app: TestApp;
  let fixtures: ImageFixtures;
  let cacheDir: string;
  const optimizer = countingOptimizer();
  before(async () => {
    fixtures = await imageFixtures();
    cacheDir = await mkdtemp(join(tmpdir(), 'eiland-image-cache-'));
    // A write a crash interrupted (a minute ago and more): removed when the cache first opens, never served.
    const crashed = join(cacheDir, `${'a'.repeat(64)}.webp.123-abcd.tmp`);
    await writeFile(crashed, 'half');
    const minutesAgo = new Date(Date.now() - 120_000);
    await utimes(crashed, minutesAgo, minutesAgo);
    app = await startApp({ publicDir: fixtures.publicDir, imageOptimizer: optimizer }, { IMAGE_CACHE_DIR: cacheDir });
  });
  after(async () => {
    await app.close();
    await fixtures.remove();
    await rm(cacheDir, { recursive: true, force: true });
  });

  it('answers each configured width no wider than asked and never wider than the source', async () => {
    for (const width of IMAGE_WIDTHS) {
      const { res, body } = await get(app, imageUrl(PHOTO, width), { Accept: 'image/webp' });
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
      const { res, body } = await get(app, imageUrl(PHOTO, 640), accept ? { Accept: accept } : {});
      assert.equal(res.headers.get('content-type'), type, `Accept: ${accept}`);
      assert.equal((await sharp(body).metadata()).format, type.slice(6), `Accept: ${accept}`);
      assert.equal(res.headers.get('vary'), 'Accept');
    }
    const jpeg = await get(app, imageUrl('/assets/images/photo.jpg', 640), { Accept: '*/*' });
    assert.equal(jpeg.res.headers.get('content-type'), 'image/jpeg');
  });

  it('sends a strong ETag per variant and 304 for If-None-Match', async () => {
    const first = await get(app, imageUrl(PHOTO, 750), { Accept: 'image/webp' });
    const etag = first.res.headers.get('etag')!;
    assert.match(etag, /^"[A-Za-z0-9_-]+"$/, 'strong');
    const again = await get(app, imageUrl(PHOTO, 750), { Accept: 'image/webp', 'If-None-Match': etag });
    assert.equal(again.res.status, 304);
    assert.equal(again.body.length, 0);
    assert.equal(again.res.headers.get('etag'), etag);
    const listed = await get(app, imageUrl(PHOTO, 750), { Accept: 'image/webp', 'If-None-Match': `"other", ${etag}` });
    assert.equal(listed.res.status, 304);
    const png = await get(app, imageUrl(PHOTO, 750), { Accept: '*/*', 'If-None-Match': etag });
    assert.equal(png.res.status, 200, 'another format is another variant');
    assert.notEqual(png.res.headers.get('etag'), etag);
    const quality = await get(app, imageUrl(PHOTO, 750, 50), { Accept: 'image/webp', 'If-None-Match': etag });
    assert.equal(quality.res.status, 200, 'another quality is another variant');
  });

  it('caches content-hashed sources for a year and revalidates the others', async () => {
    const built = await get(app, imageUrl(hero().src, 640), { Accept: 'image/webp' });
    assert.equal(built.res.status, 200);
    assert.equal(built.res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    const plain = await get(app, imageUrl(PHOTO, 640), { Accept: 'image/webp' });
    assert.equal(plain.res.headers.get('cache-control'), 'public, max-age=0, must-revalidate');
  });

  it('answers with a strict CSP, nosniff and an inline disposition with a safe file name', async () => {
    const { res } = await get(app, imageUrl(hero().src, 828), { Accept: 'image/webp' });
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
    const first = await get(app, url, { Accept: 'image/webp' });
    assert.equal(optimizer.transforms, before + 1);
    const second = await get(app, url, { Accept: 'image/webp' });
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
    const names = (await readdir(cacheDir)).filter((n) => !n.endsWith('.tmp'));
    assert.ok(names.length > 0);
    assert.deepEqual((await readdir(cacheDir)).filter((n) => n.endsWith('.tmp')), [], 'no temporary file left, the crashed one removed');
  });

  it('makes one variant once when it is asked for many times at once', async () => {
    const url = imageUrl(PHOTO, 1200, 61);
    const before = optimizer.transforms;
    const answers = await Promise.all(Array.from({ length: 5 }, () => get(app, url, { Accept: 'image/webp' })));
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

describe('GET /_image: the disk cache stays within its byte bound', () => {
  let app: TestApp;
  let fixtures: ImageFixtures;
  let cacheDir: string;
  const BOUND = 2_500;
  before(async () => {
    fixtures = await imageFixtures();
    cacheDir = await mkdtemp(join(tmpdir(), 'eiland-image-cache-'));
    app = await startApp({ publicDir: fixtures.publicDir }, { IMAGE_CACHE_DIR: cacheDir, IMAGE_CACHE_MAX_BYTES: String(BOUND) });
  });
  after(async () => {
    await app.close();
    await fixtures.remove();
    await rm(cacheDir, { recursive: true, force: true });
  });

  it('after many variants, keeps at most its bound, the most recently used first', async () => {
    const smallWidths = IMAGE_WIDTHS.filter((w) => w <= 384);
    let written = 0;
    for (const quality of [40, 60, 80]) {
      for (const width of smallWidths) {
        const { res, body } = await get(app, imageUrl(PHOTO, width, quality), { Accept: 'image/webp' });
        assert.equal(res.status, 200);
        written += body.length;
        // The first variant stays in use: least recently used is what goes.
        await get(app, imageUrl(PHOTO, 16, 40), { Accept: 'image/webp' });
      }
    }
    const { bytes, names } = await folderBytes(cacheDir);
    assert.ok(written > BOUND * 2, `the variants (${written} bytes) exceed the bound`);
    assert.ok(bytes <= BOUND, `${bytes} bytes on disk ≤ ${BOUND}`);
    assert.ok(names.length < smallWidths.length * 3, 'some variants were removed');
    const lastHit = app.logs().filter((l) => l.event === 'image' && l.width === 16).at(-1);
    assert.equal(lastHit?.cache, 'hit', 'the variant used all along is still cached');
  });
});

describe('GET /_image: AVIF when configured', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({}, { IMAGE_FORMATS: 'image/avif,image/webp' });
  });
  after(() => app.close());

  it('prefers AVIF, then WebP, by Accept', async () => {
    const avif = await get(app, imageUrl(hero().src, 640), { Accept: 'image/avif,image/webp,*/*' });
    assert.equal(avif.res.headers.get('content-type'), 'image/avif');
    assert.equal((await sharp(avif.body).metadata()).format, 'heif');
    const webp = await get(app, imageUrl(hero().src, 640), { Accept: 'image/webp,*/*' });
    assert.equal(webp.res.headers.get('content-type'), 'image/webp');
  });
});

describe('GET /_image: bounded concurrency', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp();
  });
  after(() => app.close());

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

describe('sharp is loaded on the first image request only (production bundle)', () => {
  let project: ProjectCopy;
  before(async () => {
    project = await copyProject({ files: ['package.json', 'dist', 'public'] });
  });
  after(() => project.remove());

  const mapsSharp = async (pid: number) => /libvips|sharp-linux/.test(await readFile(`/proc/${pid}/maps`, 'utf8'));

  it('pages never load it; an image does', async () => {
    const { server, url } = await startBundle(project.dir, {}, 15_000);
    try {
      for (const path of ['/', '/aanmelden', '/over', '/nope']) await (await fetch(url + path)).text();
      assert.equal(await mapsSharp(server.child.pid!), false, 'no libvips after pages');
      assert.doesNotMatch(server.output(), /sharp_loaded/);
      const res = await fetch(url + imageUrl(hero().src, 640), { headers: { Accept: 'image/webp' } });
      assert.equal(res.status, 200);
      assert.equal(await mapsSharp(server.child.pid!), true, 'libvips after an image');
      assert.match(server.output(), /sharp_loaded/);
    } finally {
      await server.stop();
    }
  });
});

describe('GET /_image: a broken cache costs speed, never an answer', () => {
  let app: TestApp;
  let blocker: string;
  before(async () => {
    blocker = await mkdtemp(join(tmpdir(), 'eiland-blocked-'));
    await writeFile(join(blocker, 'file'), 'not a folder');
    app = await startApp({}, { IMAGE_CACHE_DIR: join(blocker, 'file', 'cache') });
  });
  after(async () => {
    await app.close();
    await rm(blocker, { recursive: true, force: true });
  });

  it('serves the image and logs image_cache_failed at warn', async () => {
    const { res, body } = await get(app, imageUrl(hero().src, 640), { Accept: 'image/webp' });
    assert.equal(res.status, 200);
    assert.equal((await sharp(body).metadata()).width, 640);
    const failed = app.logs().filter((l) => l.event === 'image_cache_failed');
    assert.ok(failed.length >= 1);
    assert.equal(failed[0]!.level, 40);
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
  let app: TestApp;
  let fixtures: ImageFixtures;
  let cacheDir: string;
  const optimizer = gatedOptimizer();
  before(async () => {
    fixtures = await imageFixtures();
    cacheDir = await mkdtemp(join(tmpdir(), 'eiland-image-cache-'));
    app = await startApp({ publicDir: fixtures.publicDir, imageOptimizer: optimizer }, { IMAGE_CACHE_DIR: cacheDir, IMAGE_JOBS: '1' });
  });
  after(async () => {
    optimizer.open();
    await app.close();
    await fixtures.remove();
    await rm(cacheDir, { recursive: true, force: true });
  });

  it('a full queue answers 503 with no-store and no ETag, also to a conditional request for a variant it cannot serve now', async () => {
    // The ETag a served variant would have, learnt from a second app on its own cache.
    const other = await startApp({ publicDir: fixtures.publicDir }, { IMAGE_JOBS: '1' });
    const wanted = imageUrl(PHOTO, 640, 33);
    const etag = (await get(other, wanted, { Accept: 'image/webp' })).res.headers.get('etag')!;
    await other.close();
    assert.match(etag, /^"/);

    // 1 job running (held at the gate) and 8 waiting: the queue is full.
    const held = IMAGE_WIDTHS.slice(0, 9).map((w) => fetch(app.url + imageUrl(PHOTO, w, 90), { headers: { Accept: 'image/webp' } }));
    await waitFor(() => false, 300).catch(() => undefined);
    const conditional = await get(app, wanted, { Accept: 'image/webp', 'If-None-Match': etag });
    const star = await get(app, imageUrl(PHOTO, 750, 34), { Accept: 'image/webp', 'If-None-Match': '*' });
    for (const { res } of [conditional, star]) {
      assert.equal(res.status, 503, 'not 304: the variant is not served now');
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(res.headers.get('etag'), null);
      assert.equal(res.headers.get('retry-after'), '2');
    }
    optimizer.open();
    assert.deepEqual((await Promise.all(held)).map((r) => r.status), Array(9).fill(200));
    // Recovered: the same conditional request is a 304 now that the variant exists.
    assert.equal((await get(app, wanted, { Accept: 'image/webp', 'If-None-Match': etag })).res.status, 304);
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
        const { res } = await get(app, url, { Accept: 'image/webp', ...headers });
        assert.equal(res.status, status, `${url} ${JSON.stringify(headers)}`);
        assert.equal(res.headers.get('cache-control'), 'no-store', url);
        assert.equal(res.headers.get('etag'), null, url);
      }
    }
  });

  it('a slash after the file name is a 404, not the file', async () => {
    optimizer.open();
    assert.equal((await get(app, imageUrl(PHOTO, 640), { Accept: 'image/webp' })).res.status, 200);
    for (const path of [`${PHOTO}/`, `${PHOTO}/x`]) {
      const { res } = await get(app, imageUrl(path, 640), { Accept: 'image/webp' });
      assert.equal(res.status, 404, path);
      assert.equal(res.headers.get('etag'), null);
    }
  });
});

describe('GET /_image: instances sharing one cache folder', () => {
  const BOUND = 2_500;
  let fixtures: ImageFixtures;
  let cacheDir: string;
  const apps: TestApp[] = [];
  const optimizers = [countingOptimizer(), countingOptimizer()];
  before(async () => {
    fixtures = await imageFixtures();
    cacheDir = await mkdtemp(join(tmpdir(), 'eiland-image-cache-'));
    for (const imageOptimizer of optimizers) {
      apps.push(await startApp({ publicDir: fixtures.publicDir, imageOptimizer }, { IMAGE_CACHE_DIR: cacheDir, IMAGE_CACHE_MAX_BYTES: String(BOUND) }));
    }
  });
  after(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await fixtures.remove();
    await rm(cacheDir, { recursive: true, force: true });
  });

  it('keep the folder as a whole within the bound, and serve each other’s variants without sharp', async () => {
    const smallWidths = IMAGE_WIDTHS.filter((w) => w <= 384);
    let written = 0;
    for (const quality of [40, 60, 80]) {
      for (const [i, width] of smallWidths.entries()) {
        const { res, body } = await get(apps[i % 2]!, imageUrl(PHOTO, width, quality), { Accept: 'image/webp' });
        assert.equal(res.status, 200);
        written += body.length;
      }
    }
    const { bytes } = await folderBytes(cacheDir);
    assert.ok(written > BOUND * 2, `the variants (${written} bytes) exceed the bound`);
    assert.ok(bytes <= BOUND, `${bytes} bytes on disk ≤ ${BOUND} for both instances together`);

    const made = optimizers[1]!.transforms;
    const url = imageUrl(PHOTO, 16, 41);
    assert.equal((await get(apps[0]!, url, { Accept: 'image/webp' })).res.status, 200);
    assert.equal((await get(apps[1]!, url, { Accept: 'image/webp' })).res.status, 200);
    assert.equal(optimizers[1]!.transforms, made, 'the second instance read the first one’s variant');
  });

  it('leave alone a temporary file of a write under way in the other instance', async () => {
    const writing = join(cacheDir, `${'b'.repeat(64)}.webp.999-abcd.tmp`);
    await writeFile(writing, 'being written');
    assert.equal((await get(apps[0]!, imageUrl(PHOTO, 32, 42), { Accept: 'image/webp' })).res.status, 200);
    assert.ok((await readdir(cacheDir)).includes(`${'b'.repeat(64)}.webp.999-abcd.tmp`));
  });
});

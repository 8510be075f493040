/**
 * The disk cache of `GET /_image` (docs/images.md §7): the folder is the cache, trimmed as a whole to
 * its byte bound after each write, so instances sharing it keep one bound and read each other's
 * variants; a cache that cannot be written costs speed, never an answer.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import sharp from 'sharp';
import { useApp } from './helpers/app.js';
import { countingOptimizer, getImage, hero, PHOTO, useImageApp, useImageApps } from './helpers/images.js';
import { IMAGE_WIDTHS, imageUrl } from '../protocol/image-config.js';

/** The byte bound of the caches below: a handful of small variants. */
const BOUND = 2_500;

async function folderBytes(dir: string): Promise<{ bytes: number; names: string[] }> {
  const names = await readdir(dir);
  const sizes = await Promise.all(names.map(async (n) => (await stat(join(dir, n))).size));
  return { bytes: sizes.reduce((a, b) => a + b, 0), names };
}

describe('GET /_image: the disk cache stays within its byte bound', () => {
  const served = useImageApp({}, { IMAGE_CACHE_MAX_BYTES: String(BOUND) });
  const { app } = served;

  it('after many variants, keeps at most its bound, the most recently used first', async () => {
    const smallWidths = IMAGE_WIDTHS.filter((w) => w <= 384);
    let written = 0;
    for (const quality of [40, 60, 80]) {
      for (const width of smallWidths) {
        const { res, body } = await getImage(app, imageUrl(PHOTO, width, quality), { Accept: 'image/webp' });
        assert.equal(res.status, 200);
        written += body.length;
        // The first variant stays in use: least recently used is what goes.
        await getImage(app, imageUrl(PHOTO, 16, 40), { Accept: 'image/webp' });
      }
    }
    const { bytes, names } = await folderBytes(served.cacheDir);
    assert.ok(written > BOUND * 2, `the variants (${written} bytes) exceed the bound`);
    assert.ok(bytes <= BOUND, `${bytes} bytes on disk ≤ ${BOUND}`);
    assert.ok(names.length < smallWidths.length * 3, 'some variants were removed');
    const lastHit = app.logs().filter((l) => l.event === 'image' && l.width === 16).at(-1);
    assert.equal(lastHit?.cache, 'hit', 'the variant used all along is still cached');
  });
});

describe('GET /_image: a broken cache costs speed, never an answer', () => {
  let blocker: string | undefined;
  const app = useApp({}, async () => {
    blocker = await mkdtemp(join(tmpdir(), 'eiland-blocked-'));
    await writeFile(join(blocker, 'file'), 'not a folder');
    return { IMAGE_CACHE_DIR: join(blocker, 'file', 'cache') };
  });
  after(() => blocker && rm(blocker, { recursive: true, force: true }));

  it('serves the image and logs image_cache_failed at warn', async () => {
    const { res, body } = await getImage(app, imageUrl(hero().src, 640), { Accept: 'image/webp' });
    assert.equal(res.status, 200);
    assert.equal((await sharp(body).metadata()).width, 640);
    const failed = app.logs().filter((l) => l.event === 'image_cache_failed');
    assert.ok(failed.length >= 1);
    assert.equal(failed[0]!.level, 40);
  });
});

describe('GET /_image: instances sharing one cache folder', () => {
  const optimizers = [countingOptimizer(), countingOptimizer()];
  const shared = useImageApps(optimizers.map((imageOptimizer) => ({ imageOptimizer })), { IMAGE_CACHE_MAX_BYTES: String(BOUND) });
  const { apps } = shared;

  it('keep the folder as a whole within the bound, and serve each other’s variants without sharp', async () => {
    const smallWidths = IMAGE_WIDTHS.filter((w) => w <= 384);
    let written = 0;
    for (const quality of [40, 60, 80]) {
      for (const [i, width] of smallWidths.entries()) {
        const { res, body } = await getImage(apps[i % 2]!, imageUrl(PHOTO, width, quality), { Accept: 'image/webp' });
        assert.equal(res.status, 200);
        written += body.length;
      }
    }
    const { bytes } = await folderBytes(shared.cacheDir);
    assert.ok(written > BOUND * 2, `the variants (${written} bytes) exceed the bound`);
    assert.ok(bytes <= BOUND, `${bytes} bytes on disk ≤ ${BOUND} for both instances together`);

    const made = optimizers[1]!.transforms;
    const url = imageUrl(PHOTO, 16, 41);
    assert.equal((await getImage(apps[0]!, url, { Accept: 'image/webp' })).res.status, 200);
    assert.equal((await getImage(apps[1]!, url, { Accept: 'image/webp' })).res.status, 200);
    assert.equal(optimizers[1]!.transforms, made, 'the second instance read the first one’s variant');
  });

  it('leave alone a temporary file of a write under way in the other instance', async () => {
    const writing = join(shared.cacheDir, `${'b'.repeat(64)}.webp.999-abcd.tmp`);
    await writeFile(writing, 'being written');
    assert.equal((await getImage(apps[0]!, imageUrl(PHOTO, 32, 42), { Accept: 'image/webp' })).res.status, 200);
    assert.ok((await readdir(shared.cacheDir)).includes(`${'b'.repeat(64)}.webp.999-abcd.tmp`));
  });
});

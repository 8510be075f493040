/**
 * The build's images (docs/images.md §3) when two builds render them at once into one folder, as a
 * watch batch can beside the one before it: both finish, with the same files.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildImages } from '../build/images.mjs';
import { ROOT } from '../build/paths.mjs';

describe('the build’s images rendered by two builds at once', () => {
  it('both finish, and the folder holds each image once, no temporary file left', async () => {
    const outAbs = await mkdtemp(join(tmpdir(), 'eiland-images-'));
    try {
      const [one, two] = await Promise.all([buildImages({ root: ROOT, outAbs }), buildImages({ root: ROOT, outAbs })]);
      assert.deepEqual(one.images, two.images);
      const files = (await readdir(join(outAbs, 'assets', 'images'))).sort();
      assert.deepEqual(files, Object.values(one.images).map((image) => image.src.split('/').pop()).sort());
    } finally {
      await rm(outAbs, { recursive: true, force: true });
    }
  });
});

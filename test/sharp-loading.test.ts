/**
 * sharp is loaded on the first image request only (docs/images.md §6): the production bundle serves
 * pages without libvips in its memory.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { hero } from './helpers/images.js';
import { startBundle, useProjectCopy, withProcess } from './helpers/project.js';
import { imageUrl } from '../protocol/image-config.js';

describe('sharp is loaded on the first image request only (production bundle)', () => {
  const project = useProjectCopy({ files: ['package.json', 'dist', 'public'] });

  const mapsSharp = async (pid: number) => /libvips|sharp-linux/.test(await readFile(`/proc/${pid}/maps`, 'utf8'));

  it('pages never load it; an image does', () =>
    withProcess(
      () => startBundle(project.dir, {}, 15_000),
      async ({ server, url }) => {
        for (const path of ['/', '/aanmelden', '/over', '/nope']) await (await fetch(url + path)).text();
        assert.equal(await mapsSharp(server.child.pid!), false, 'no libvips after pages');
        assert.doesNotMatch(server.output(), /sharp_loaded/);
        const res = await fetch(url + imageUrl(hero().src, 640), { headers: { Accept: 'image/webp' } });
        assert.equal(res.status, 200);
        assert.equal(await mapsSharp(server.child.pid!), true, 'libvips after an image');
        assert.match(server.output(), /sharp_loaded/);
      },
    ));
});

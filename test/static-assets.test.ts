/**
 * What the static handlers of `/assets/…` and `/favicon.ico` serve (docs/filter.md §8): files below
 * their folders, and nothing else. A folder is a plain 404, never a redirect to itself with a
 * slash (which the canonical paths would send straight back); a symbolic link that leads out of
 * the public folder is never followed.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { useApp } from './helpers/app.js';

const SECRET = 'geheim-buiten-de-map';

/** A public folder with a folder, a file, a link inside it and links out of it; and the file they lead to. */
let root: string;
const app = useApp(async () => {
  root = await mkdtemp(join(tmpdir(), 'eiland-static-'));
  const publicDir = join(root, 'public');
  await mkdir(join(publicDir, 'map'), { recursive: true });
  await writeFile(join(root, 'buiten.txt'), SECRET);
  await writeFile(join(publicDir, 'binnen.txt'), 'binnen');
  await writeFile(join(publicDir, 'map', 'diep.txt'), 'diep');
  await symlink(join(publicDir, 'binnen.txt'), join(publicDir, 'naar-binnen.txt'));
  await symlink(join(root, 'buiten.txt'), join(publicDir, 'naar-buiten.txt'));
  await symlink(join(root, 'buiten.txt'), join(publicDir, 'favicon.ico'));
  await symlink(root, join(publicDir, 'naar-boven'));
  return { publicDir };
});
after(() => rm(root, { recursive: true, force: true }));

describe('the static handlers', () => {
  const cases: [path: string, status: number, body: string][] = [
    // Folders of the build (every build has images/) and of the public folder.
    ['/assets/images', 404, 'Not Found'],
    ['/assets/map', 404, 'Not Found'],
    ['/assets/map/diep.txt', 200, 'diep'],
    ['/assets/binnen.txt', 200, 'binnen'],
    ['/assets/naar-binnen.txt', 200, 'binnen'],
    ['/assets/naar-buiten.txt', 404, 'Not Found'],
    ['/assets/naar-boven/buiten.txt', 404, 'Not Found'],
    ['/favicon.ico', 404, 'Not Found'],
  ];
  for (const [path, status, body] of cases) {
    it(`${path} → ${status}`, async () => {
      const res = await app.request(path);
      assert.equal(res.status, status);
      assert.equal(res.body, body);
      assert.equal(res.headers.location, undefined);
      if (status === 404) assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
    });
  }

  it('answers a folder with a slash by its canonical path, which is a 404: no loop', async () => {
    const first = await app.request('/assets/images/');
    assert.equal(first.status, 308);
    assert.equal(first.headers.location, '/assets/images');
    assert.equal((await app.request(first.headers.location)).status, 404);
  });

  it('never sends what a link out of the folder leads to', async () => {
    for (const path of ['/assets/naar-buiten.txt', '/assets/naar-boven/buiten.txt', '/favicon.ico', '/_image?url=%2Fassets%2Fimages%2F..%2Fnaar-buiten.txt&w=640']) {
      assert.doesNotMatch((await app.request(path)).body, new RegExp(SECRET), path);
    }
  });
});

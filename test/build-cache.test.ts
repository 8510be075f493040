/**
 * The build's cache is the project's own (docs/islands.md §4): two checkouts that share one
 * `node_modules` keep their rule lists and minified copies apart.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cacheDir } from '../build/paths.mjs';

describe('the build cache', () => {
  it('is a folder of each project, under its node_modules/.cache/eiland/', () => {
    const one = cacheDir('/srv/eiland-a');
    const two = cacheDir('/srv/eiland-b');
    assert.notEqual(one, two);
    assert.ok(one.startsWith(join('/srv/eiland-a', 'node_modules', '.cache', 'eiland') + '/'), one);
    assert.equal(cacheDir('/srv/eiland-a'), one, 'the same project keeps its folder');
  });
});

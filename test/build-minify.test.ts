/**
 * The build's second minification (docs/performance.md §4): outputs minified in more than one call
 * (React's module as soon as it is built, the islands after the rule lists) keep every copy of
 * this build in the cache, and only copies of no output of this build are pruned.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { minifyAgain, pruneMinified } from '../build/minify.mjs';

describe('the minified copies of a build', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'eiland-minify-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('are kept for every call of the build and pruned of the rest', async () => {
    const cache = join(dir, 'cache');
    const first = join(dir, 'react.js');
    const second = join(dir, 'island.js');
    await writeFile(first, 'export function first(argument) { return argument + 1; }\n');
    await writeFile(second, 'export const second = (value) => { const doubled = value * 2; return doubled; };\n');
    const firstNames = await minifyAgain([first, join(dir, 'react.LEGAL.txt')], cache);
    const secondNames = await minifyAgain([second], cache);
    assert.equal(firstNames.length, 1, 'only .js outputs are minified');
    assert.equal(secondNames.length, 1);
    const stale = join(cache, 'of-an-earlier-build.js');
    await writeFile(stale, 'x');
    await pruneMinified(cache, [...firstNames, ...secondNames]);
    assert.deepEqual((await readdir(cache)).sort(), [...firstNames, ...secondNames].sort());
    assert.ok(!(await readFile(second, 'utf8')).includes('doubled'), 'the output was minified in place');
  });
});

/**
 * The test lanes are derived from the test files (docs/qa-kit.md §1): the quick lane holds every
 * server test that needs none of the programs `npm test` installs, and a test that reaches one
 * through its imports is left out; its files that start processes of their own go first.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { laneFiles, needsProgram, startsProcesses } from '../scripts/test-files.mjs';

describe('the test lanes', () => {
  it('puts every server test in the quick lane or leaves it for a program it needs, and the browser suites in npm test only', () => {
    const all = laneFiles('all');
    const quick = laneFiles('quick');
    assert.deepEqual([...quick, ...laneFiles('programs')].sort(), [...all].sort(), 'npm test runs both lanes: every file once');
    assert.ok(quick.includes('test/test-lanes.test.ts'), 'this file needs no program');
    assert.ok(quick.every((file) => all.includes(file) && !file.startsWith('test/e2e/')));
    for (const file of all.filter((f) => !quick.includes(f) && !f.startsWith('test/e2e/'))) assert.equal(needsProgram(resolve(file)), true, file);
    assert.ok(all.length > quick.length);
    assert.deepEqual(all, [...laneFiles('programs'), ...quick], 'the long files first');
    assert.equal(new Set(all).size, all.length, 'each file once');
  });

  it('begins the quick lane with the files that start processes of their own', () => {
    const spawning = laneFiles('quick').map((file) => startsProcesses(resolve(file)));
    assert.ok(spawning.includes(true) && spawning.includes(false), 'the lane holds both kinds');
    assert.equal(spawning.indexOf(false), spawning.lastIndexOf(true) + 1, `the spawning files first: ${spawning.join(' ')}`);
    assert.equal(startsProcesses(resolve('test/npm-start.test.ts')), true, 'npm start runs npm');
    assert.equal(startsProcesses(resolve('test/test-lanes.test.ts')), false, 'this file starts none');
  });

  it('leaves out a test that reaches a program through a helper it imports, and not one that imports only its types', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eiland-lanes-'));
    try {
      const helper = relative(dir, resolve('test/helpers/nginx.js'));
      const viaHelper = join(dir, 'via-helper.test.ts');
      await writeFile(viaHelper, `import { startNginx } from '${helper}';\nvoid startNginx;\n`);
      const typeOnly = join(dir, 'type-only.test.ts');
      await writeFile(typeOnly, `import type { TestNginx } from '${helper}';\nimport type { Page } from 'puppeteer-core';\nexport type T = [TestNginx, Page];\n`);
      assert.equal(needsProgram(viaHelper), true);
      assert.equal(needsProgram(typeOnly), false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/**
 * The test lanes are derived from the test files (docs/qa-kit.md §1): the quick lane holds every
 * server test that needs none of the programs `npm test` installs, and a test that reaches one
 * through its imports is left out; its files that start processes of their own go first.
 * `npm run test:related` runs the files whose import closure reaches a changed file.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { importClosure, laneFiles, needsProgram, relatedTests, startsProcesses } from '../scripts/test-files.mjs';
import { statusPaths, summary } from '../scripts/test-related.mjs';

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

describe('npm run test:related', () => {
  it('chooses the tests whose imports reach a changed file, at any depth and by any kind of load, and no other', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eiland-related-'));
    try {
      const files = {
        'leaf.ts': 'export const leaf = 1;\n',
        'helper.ts': "import { leaf } from './leaf.js';\nexport const helper = leaf;\n",
        'other.ts': 'export const other = 2;\n',
        'data.json': '{}\n',
        'reads-data.ts': "import data from './data.json' with { type: 'json' };\nexport default data;\n",
        'unused.ts': 'export const unused = 3;\n',
        'deep.test.ts': "import { helper } from './helper.js';\nvoid helper;\n",
        'lazy.test.ts': "import type { leaf } from './leaf.js';\nexport const load = (): Promise<unknown> => import('./other.js');\nexport type T = typeof leaf;\n",
        'bare.test.ts': "import './reads-data.js';\n",
      };
      for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
      const at = (name: string): string => join(dir, name);
      const tests = ['deep.test.ts', 'lazy.test.ts', 'bare.test.ts'].map(at);
      const chosen = (...changed: string[]): string[] => relatedTests(changed.map(at), tests).files.map((file) => relative(dir, file));
      assert.deepEqual(chosen('leaf.ts'), ['deep.test.ts'], 'through a helper; a type-only import loads nothing');
      assert.deepEqual(chosen('other.ts'), ['lazy.test.ts'], 'a dynamic import');
      assert.deepEqual(chosen('data.json'), ['bare.test.ts'], 'a bare import of a module that imports JSON');
      assert.deepEqual(chosen('lazy.test.ts'), ['lazy.test.ts'], 'a changed test runs itself');
      assert.deepEqual(chosen('unused.ts'), [], 'nothing imports it');
      assert.deepEqual(chosen('other.ts', 'leaf.ts'), ['deep.test.ts', 'lazy.test.ts'], 'in the order of the candidates');
      assert.deepEqual([...relatedTests([at('leaf.ts'), at('unused.ts')], tests).reached], [[at('leaf.ts'), 1], [at('unused.ts'), 0]]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('chooses from the lanes, in their order, the browser suites among them, every test that imports the changed module and none that does not reach it', () => {
    const all = laneFiles('all');
    // Read from the text, not from the closure: `from '../src/x.js'` for src/x.ts.
    const importsDirectly = (file: string, module: string): boolean => {
      const specifier = relative(dirname(file), module).replace(/\.tsx?$/, '.js');
      return readFileSync(file, 'utf8').includes(`from '${specifier.startsWith('.') ? '' : './'}${specifier}'`);
    };
    for (const module of ['src/filter/canonical.ts', 'test/e2e/kit.ts', 'scripts/test-files.mjs']) {
      const files = relatedTests([resolve(module)]).files.map((file) => relative(resolve('.'), file));
      assert.deepEqual(files, all.filter((file) => files.includes(file)), `${module}: in the lanes' order`);
      const direct = all.filter((file) => importsDirectly(file, module));
      assert.ok(direct.length > 0 && direct.every((file) => files.includes(file)), `${module}: ${direct.join(', ')}`);
      for (const file of all.filter((f) => !files.includes(f))) assert.equal(importClosure(resolve(file)).has(resolve(module)), false, `${module}: ${file}`);
    }
    assert.ok(relatedTests([resolve('test/e2e/kit.ts')]).files.every((file) => needsProgram(file)), 'only browser suites import the kit');
    assert.deepEqual(relatedTests([resolve('test/test-lanes.test.ts')]).files, [resolve('test/test-lanes.test.ts')], 'a changed test runs itself, and nothing imports a test');
    assert.deepEqual(relatedTests([resolve('docs/qa-kit.md')]).files, [], 'no test imports a document');
  });

  it('takes what git status shows changed, staged, unstaged or untracked, and of a rename its new path', () => {
    const cases: [string, string[]][] = [
      ['', []],
      ['M  src/app.ts\0', ['src/app.ts']],
      [' M views/pages/Over.tsx\0MM src/filter/head.ts\0', ['views/pages/Over.tsx', 'src/filter/head.ts']],
      ['?? test/new.test.ts\0A  src/new.ts\0', ['test/new.test.ts', 'src/new.ts']],
      ['R  src/renamed.ts\0src/old.ts\0 M src/after.ts\0', ['src/renamed.ts', 'src/after.ts']],
      ['D  src/gone.ts\0', ['src/gone.ts']], // a deleted file: no longer a file, the command leaves it out
      ['?? name with spaces.ts\0', ['name with spaces.ts']],
    ];
    for (const [status, paths] of cases) assert.deepEqual(statusPaths(status), paths, JSON.stringify(status));
  });

  it('says in one line how many files it chose and what they import', () => {
    assert.equal(summary(new Map([['views/pages/Over.tsx', 77]]), 77, 90), '77 of 90 test files import views/pages/Over.tsx (at any depth)');
    assert.equal(summary(new Map([['src/a.ts', 3], ['src/unused.ts', 0], ['test/b.test.ts', 1]]), 4, 90), '4 of 90 test files import what changed: src/a.ts (3), test/b.test.ts (1) (at any depth)');
  });
});

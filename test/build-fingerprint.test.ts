/**
 * `npm start` builds first (docs/development.md §5): a build folder that already holds the build
 * of these sources is left as it is, so a start after no change answers within a second; any
 * change to what the build reads builds again, and so does `--force`.
 */
import assert from 'node:assert/strict';
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { run, SOURCES, useProjectCopy } from './helpers/project.js';

const project = useProjectCopy({ files: [...SOURCES, 'dist'] });
const build = (...args: string[]) => run(process.execPath, ['build.mjs', ...args], { cwd: project.dir });

describe('the build of unchanged sources', () => {
  it('is skipped; a changed source or lock file, or --force, builds again', async () => {
    const first = await build();
    const id = () => readFile(join(project.dir, 'dist', 'manifest.json'), 'utf8').then((text) => (JSON.parse(text) as { buildId: string }).buildId);
    assert.match(first, /build \S+ \(production\)|dist\/ is up to date/);
    assert.match(await build(), /^build \(production\): dist\/ is up to date$/m);
    const before = await id();

    await appendFile(join(project.dir, 'views', 'styles.css'), '\n.fingerprint-proef { color: red; }\n');
    assert.match(await build(), /^build \S+ \(production\): \d+ client files/m, 'a changed stylesheet');
    assert.notEqual(await id(), before);
    assert.match(await build(), /dist\/ is up to date/);

    await appendFile(join(project.dir, 'package-lock.json'), ' ');
    assert.match(await build(), /^build \S+ \(production\)/m, 'a changed lock file');
    assert.match(await build('--force'), /^build \S+ \(production\)/m, '--force');
    assert.match(await build(), /dist\/ is up to date/);
  });
});

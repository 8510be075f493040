/**
 * `npm start` (docs/operations.md §4): it builds, then runs the server bundle with plain node — no tsx,
 * no TypeScript — so the sources can change under a running server without effect.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { raw, textOf } from './helpers/app.js';
import { npmStart, run, useProjectCopy, withProcess } from './helpers/project.js';

describe('npm start', { timeout: 120_000 }, () => {
  const copy = useProjectCopy();

  it('builds, then runs the bundle with plain node, and ignores a tampered src/ at run time', () =>
    withProcess(
      () => npmStart(copy.dir),
      async ({ server, port }) => {
        assert.equal(textOf((await raw(port, '/over')).body, 'h1'), 'Over deze site');

        // What runs is node on the bundle: no tsx, no TypeScript (the process group of npm start).
        const processes = (await run('ps', ['-o', 'args=', '-g', String(server.child.pid)])).split('\n').filter(Boolean);
        assert.ok(processes.some((p) => /^node dist\/server\/main\.js$/.test(p.trim()) || p.trim() === `${process.execPath} dist/server/main.js`), processes.join('\n'));
        assert.ok(!processes.some((p) => /tsx/.test(p)), processes.join('\n'));

        await writeFile(join(copy.dir, 'views/pages/Over.tsx'), 'export function Over() { throw new Error("tampered"); }\n');
        await writeFile(join(copy.dir, 'src/main.ts'), 'throw new Error("tampered");\n');
        const after = await raw(port, '/over');
        assert.equal(after.status, 200);
        assert.equal(textOf(after.body, 'h1'), 'Over deze site');
      },
    ));
});

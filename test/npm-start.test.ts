/**
 * `npm start` (docs/operations.md §4): it builds, then runs the server bundle with plain node — no tsx,
 * no TypeScript — so the sources can change under a running server without effect; with no
 * `SMTP_URL` a registration's e-mail is a file under data/mail/ (docs/operations.md §12).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { NODE_FLAGS } from '../scripts/production-env.mjs';
import { raw, textOf, waitFor } from './helpers/app.js';
import { openForm, postForm, VALID } from './helpers/form.js';
import { npmStart, run, useProcess, useProjectCopy } from './helpers/project.js';

describe('npm start', { timeout: 120_000 }, () => {
  const copy = useProjectCopy();
  // One start for both tests: the second tampers with the sources last.
  const started = useProcess(() => npmStart(copy.dir));

  it('registers a person and writes their e-mail to data/mail/, as its start-up line says (docs/operations.md §12)', async () => {
    const { server, port, url } = started;
    const line = server.output().split('\n').find((l) => l.includes('"server_started"'));
    assert.deepEqual(JSON.parse(line ?? '{}'), { ...JSON.parse(line ?? '{}'), mail: 'files', mailDir: join(copy.dir, 'data', 'mail') });
    const posted = await postForm({ port, url }, '/aanmelden', VALID, await openForm({ port }, '/aanmelden'));
    assert.equal(posted.status, 303);
    const folder = join(copy.dir, 'data', 'mail');
    await waitFor(() => existsSync(folder) && readdirSync(folder).some((f) => f.endsWith('.eml')), 10_000);
    const [file] = readdirSync(folder);
    const mail = await readFile(join(folder, file!), 'utf8');
    assert.match(mail, /^Subject: Je aanmelding bij Eiland$/m);
    assert.match(mail, /^To: anna@voorbeeld\.nl$/m);
  });

  it('builds, then runs the bundle with plain node, and ignores a tampered src/ at run time', async () => {
    const { server, port } = started;
    assert.equal(textOf((await raw(port, '/over')).body, 'h1'), 'Over deze site');

    // What runs is node on the bundle with production's flags: no tsx, no TypeScript (the process group of npm start).
    const processes = (await run('ps', ['-o', 'args=', '-g', String(server.child.pid)])).split('\n').filter(Boolean);
    const command = [...NODE_FLAGS, 'dist/server/main.js'].join(' ');
    assert.ok(processes.some((p) => p.trim() === `node ${command}` || p.trim() === `${process.execPath} ${command}`), processes.join('\n'));
    assert.ok(!processes.some((p) => /tsx/.test(p)), processes.join('\n'));

    await writeFile(join(copy.dir, 'views/pages/Over.tsx'), 'export function Over() { throw new Error("tampered"); }\n');
    await writeFile(join(copy.dir, 'src/main.ts'), 'throw new Error("tampered");\n');
    const after = await raw(port, '/over');
    assert.equal(after.status, 200);
    assert.equal(textOf(after.body, 'h1'), 'Over deze site');
  });
});

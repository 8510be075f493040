/**
 * `npm run test:loaded` (docs/qa-kit.md §1): a command run with busy processes beside it, as many
 * times as asked, stopping at the first failure, its exit code passed on, the busy processes gone
 * afterwards.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SCRIPT = 'scripts/test-loaded.mjs';

/** How many processes are running the busy loop now. */
async function busyProcesses(): Promise<number> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const lines = await Promise.all(pids.map((pid) => readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')));
  return lines.filter((line) => line.split('\0')[2] === 'for (;;) {}').length;
}

/** A command that prints how many busy processes run beside it. */
const COUNT = `const { readdirSync, readFileSync } = require('node:fs'); console.log('busy=' + readdirSync('/proc').filter((p) => /^\\d+$/.test(p)).filter((p) => { try { return readFileSync('/proc/' + p + '/cmdline', 'utf8').split('\\0')[2] === 'for (;;) {}'; } catch { return false; } }).length);`;

describe('npm run test:loaded (docs/qa-kit.md §1)', () => {
  it('runs the command beside two busy processes, as many times as asked, and stops them', async () => {
    const before = await busyProcesses();
    const { stdout } = await run(process.execPath, [SCRIPT, '--times', '2', '--', process.execPath, '-e', COUNT]);
    assert.deepEqual(stdout.match(/busy=\d+/g), [`busy=${before + 2}`, `busy=${before + 2}`]);
    assert.equal((stdout.match(/run \d of 2, .* beside 2 busy processes: passed in \d+ s/g) ?? []).length, 2);
    assert.equal(await busyProcesses(), before, 'the busy processes are gone');
  });

  it('stops at the first failure and exits with its code', async () => {
    const failing = await run(process.execPath, [SCRIPT, '--times', '3', '--', process.execPath, '-e', 'process.exit(3)']).then(
      () => undefined,
      (error: { code: number; stdout: string }) => error,
    );
    assert.equal(failing?.code, 3);
    assert.match(failing!.stdout, /run 1 of 3, .*: failed \(exit 3\)/);
    assert.doesNotMatch(failing!.stdout, /run 2 of 3/);
  });
});

/**
 * The files that can share a process run in group entries (docs/qa-kit.md §1): every file of a
 * lane once, those that need a program, start processes, or measure or mock their process alone,
 * and each group in the lane's order.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { GROUPS, laneFiles, processEntries, sharesProcess } from '../scripts/test-files.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The files a group entry loads, relative to the root, in its order; each in a suite named by its path. */
function imported(entry: string): string[] {
  const suites = [...readFileSync(join(ROOT, entry), 'utf8').matchAll(/describe\(("[^"]+"), async \(\) => \{\n {2}await import\("([^"]+)"\);\n\}\);/g)];
  const files = suites.map((m) => relative(ROOT, fileURLToPath(m[2]!)));
  assert.deepEqual(suites.map((m) => JSON.parse(m[1]!) as string), files, 'each suite named by its file');
  return files;
}

describe('the test files that share a process', () => {
  const made: string[] = [];
  after(async () => {
    for (const entry of made) await rm(join(ROOT, entry), { force: true });
  });

  it('runs each file of the quick lane once, alone or in a group, each group in the lane order', () => {
    const files = laneFiles('quick');
    const entries = processEntries(files, 'lanes-checked');
    const groups = entries.filter((entry) => entry.endsWith('.test.mjs'));
    made.push(...groups);
    const alone = entries.filter((entry) => !groups.includes(entry));
    assert.equal(groups.length, GROUPS);
    const grouped = groups.map(imported);
    assert.deepEqual([...grouped.flat(), ...alone].sort(), [...files].sort(), 'every file once');
    for (const group of grouped) {
      assert.ok(group.length > 0, 'no empty group');
      assert.deepEqual(group, files.filter((file) => group.includes(file)), 'in the order of the lane');
    }
    assert.deepEqual(alone, files.filter((file) => !sharesProcess(resolve(ROOT, file))), 'alone: what cannot share a process, in lane order');
  });

  it('leaves alone a file that starts a process, mocks timers or measures its memory, and groups a plain one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eiland-groups-'));
    try {
      const write = async (name: string, text: string) => {
        await writeFile(join(dir, name), text);
        return relative(ROOT, join(dir, name));
      };
      const plain = await write('plain.test.ts', "import { it } from 'node:test';\nit('runs', () => {});\n");
      const spawning = await write('spawning.test.ts', "import { spawn } from 'node:child_process';\nvoid spawn;\n");
      const timers = await write('timers.test.ts', "import { mock } from 'node:test';\nmock.timers.enable();\n");
      const memory = await write('memory.test.ts', 'console.log(process.memoryUsage().heapUsed);\n');
      const entries = processEntries([plain, spawning, timers, memory], 'lanes-checked-synthetic');
      made.push(...entries.filter((entry) => entry.endsWith('.test.mjs')));
      assert.deepEqual(entries.slice(1), [spawning, timers, memory]);
      assert.deepEqual(imported(entries[0]!), [plain]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

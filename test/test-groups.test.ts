/**
 * Test files share processes (docs/qa-kit.md §1): every file of a lane once, in group entries that
 * keep the lane's order, the files that need a program in small groups of their own, each file
 * bounded by its lane's limit, and a file that measures or mocks its process alone.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import durations, { readDurations, writeDurations } from '../scripts/test-durations.mjs';
import { FILE_TIMEOUT, GROUPS, laneFiles, needsProgram, PROGRAM_GROUP_SIZE, processEntries, sharesProcess } from '../scripts/test-files.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The files an entry loads, relative to the root, in its order, each bounded by `timeout` (scripts/test-group.mjs). */
function imported(entry: string, timeout: number): string[] {
  const text = readFileSync(join(ROOT, entry), 'utf8');
  const call = /^await shareProcess\((\[[^]*\]), \{ timeout: (\d+) \}\);$/m.exec(text);
  assert.ok(call, `${entry} calls shareProcess`);
  assert.equal(Number(call[2]), timeout, 'each file bounded by the lane’s limit');
  const files = JSON.parse(call[1]!.replace(/,\n\]$/, '\n]')) as Array<[string, string]>;
  for (const [path, url] of files) assert.equal(relative(ROOT, fileURLToPath(url)), path, 'each suite named by its file');
  return files.map(([path]) => path);
}

const at = (file: string) => resolve(ROOT, file);
const execFileAsync = promisify(execFile);

describe('the test files that share a process', () => {
  const made: string[] = [];
  after(async () => {
    for (const entry of made) await rm(join(ROOT, entry), { force: true });
  });

  it('runs each file of both lanes once, in groups in the lane’s order, those needing a program apart and few to a group', () => {
    const files = laneFiles('all');
    const entries = processEntries(files, 'lanes-checked', { timeout: FILE_TIMEOUT.all });
    made.push(...entries);
    const grouped = entries.map((entry) => imported(entry, FILE_TIMEOUT.all));
    assert.deepEqual(grouped.flat().sort(), [...files].sort(), 'every file once');
    for (const group of grouped) {
      assert.ok(group.length > 0, 'no empty group');
      assert.deepEqual(group, files.filter((file) => group.includes(file)), 'in the order of the lane');
      const kinds = new Set(group.map((file) => (!sharesProcess(at(file)) ? 'alone' : needsProgram(at(file)) ? 'program' : 'plain')));
      assert.equal(kinds.size, 1, `one kind to a group: ${group.join(', ')}`);
      if (kinds.has('alone')) assert.equal(group.length, 1, `a file that cannot share a process is alone: ${group.join(', ')}`);
    }
    const plain = grouped.filter((group) => group.every((file) => sharesProcess(at(file)) && !needsProgram(at(file))));
    assert.equal(plain.length, GROUPS, 'the files needing no program in the lane’s groups');
    const needing = files.filter((file) => sharesProcess(at(file)) && needsProgram(at(file)));
    const programGroups = grouped.filter((group) => group.every((file) => sharesProcess(at(file)) && needsProgram(at(file))));
    assert.equal(programGroups.length, Math.ceil(needing.length / PROGRAM_GROUP_SIZE), `the files needing a program, ${PROGRAM_GROUP_SIZE} to a group on average`);
    assert.ok(grouped.some((group) => group.length > 1 && group.every((file) => needsProgram(at(file)))), 'files needing a program share a process too');
  });

  it('groups files that start processes with plain ones, and leaves alone one that mocks timers or measures its memory', async () => {
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
      const entries = processEntries([plain, spawning, timers, memory], 'lanes-checked-synthetic', { timeout: 1234 });
      made.push(...entries);
      const groups = entries.map((entry) => imported(entry, 1234));
      for (const alone of [timers, memory]) assert.ok(groups.some((group) => group.length === 1 && group[0] === alone), `${alone} alone`);
      assert.deepEqual(groups.flat().sort(), [plain, spawning, timers, memory].sort(), 'each file once');
      assert.ok(sharesProcess(at(spawning)), 'a file that starts processes can share its own');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('runs each file’s tests inside its own suite, also when the files share a module that awaits at its top', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eiland-groups-'));
    try {
      await writeFile(join(dir, 'shared.mjs'), 'await new Promise((resolve) => setTimeout(resolve, 50));\nexport const shared = 1;\n');
      const files: string[] = [];
      for (const name of ['first', 'second']) {
        await writeFile(join(dir, `${name}.test.mjs`), `import { it } from 'node:test';\nimport { shared } from './shared.mjs';\nit('${name} test', () => void shared);\n`);
        files.push(relative(ROOT, join(dir, `${name}.test.mjs`)));
      }
      // A group entry as processEntries writes it.
      const entry = join(dir, 'group.test.mjs');
      const runner = new URL('../scripts/test-group.mjs', import.meta.url).href;
      await writeFile(entry, `import { shareProcess } from ${JSON.stringify(runner)};\nawait shareProcess(${JSON.stringify(files.map((file) => [file, pathToFileURL(at(file)).href]))}, { timeout: 60000 });\n`);
      // A run of its own, not a part of this one's report.
      const { NODE_TEST_CONTEXT: _, ...env } = process.env;
      const { stdout } = await execFileAsync(process.execPath, ['--test', '--test-reporter=tap', entry], { cwd: ROOT, env });
      const tree = stdout.split('\n').filter((line) => /^\s*(# Subtest:|ok|not ok) /.test(line));
      const [first, second] = files as [string, string];
      assert.deepEqual(tree, [
        `# Subtest: ${first}`,
        '    # Subtest: first test',
        '    ok 1 - first test',
        `ok 1 - ${first}`,
        `# Subtest: ${second}`,
        '    # Subtest: second test',
        '    ok 1 - second test',
        `ok 2 - ${second}`,
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('balances groups by the files’ last durations and gives the longest entry first', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eiland-groups-'));
    const files: string[] = [];
    try {
      // Five files of 40 bytes each; four with a last duration, the fifth (e) estimated from its
      // bytes as the others' bytes scale to their times: 1 900 ms / 160 bytes × 40 = 475 ms.
      for (const name of ['a', 'b', 'c', 'd', 'e']) {
        const file = join(dir, `${name}.test.ts`);
        await writeFile(file, `// ${name}\n`.padEnd(40, '/'));
        files.push(relative(ROOT, file));
      }
      const [a, b, c, d, e] = files as [string, string, string, string, string];
      rewriteDurations((known) => ({ ...known, [a]: 900, [b]: 500, [c]: 400, [d]: 100 }));
      const entries = processEntries(files, 'lanes-checked-timed', { timeout: 1 });
      made.push(...entries);
      // In three groups, each file to the group with the least time so far, longest file first:
      // a (900) | b (500), then d (600) | e (475), then c (875); entries by their time, longest first.
      assert.deepEqual(entries.map((entry) => imported(entry, 1)), [[a], [c, e], [b, d]]);
    } finally {
      rewriteDurations((known) => Object.fromEntries(Object.entries(known).filter(([file]) => !files.includes(file))));
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** Replaces the kept durations by what `change` makes of them. */
const rewriteDurations = (change: (known: Record<string, number>) => Record<string, number>): void => writeDurations(change(readDurations()));

describe('the durations reporter', () => {
  it('keeps how long each test file took, from the suites named by their paths, beside the earlier ones', async () => {
    const name = 'test/durations-reporter-checked.test.ts';
    const earlier = 'test/durations-earlier-checked.test.ts';
    rewriteDurations((known) => ({ ...known, [earlier]: 42 }));
    async function* events() {
      yield { type: 'test:pass', data: { name, nesting: 0, details: { duration_ms: 1234.4 } } };
      yield { type: 'test:pass', data: { name: 'a test inside it', nesting: 1, details: { duration_ms: 5 } } };
      yield { type: 'test:fail', data: { name: 'not a file', nesting: 0, details: { duration_ms: 7 } } };
    }
    try {
      const output: unknown[] = [];
      for await (const chunk of durations(events())) output.push(chunk);
      assert.deepEqual(output, [], 'nothing written to its destination');
      const kept = readDurations();
      assert.equal(kept[name], 1234);
      assert.equal(kept[earlier], 42, 'the earlier file kept');
      assert.equal(kept['not a file'], undefined);
    } finally {
      rewriteDurations((known) => Object.fromEntries(Object.entries(known).filter(([file]) => file !== name && file !== earlier)));
    }
  });
});

// The test files of a lane (docs/qa-kit.md §1), derived from the files themselves, never listed:
//
//   node scripts/test-files.mjs quick → every server test (test/*.test.ts, .tsx) whose modules need none
//                                       of the programs of scripts/test-tools.mjs, those that
//                                       start processes of their own first (the long ones)
//   node scripts/test-files.mjs programs → the rest: the server tests that need one, and the browser
//                                       suites (test/e2e/*.test.ts)
//   node scripts/test-files.mjs all   → both, the programs' first: `npm test` runs their entries
//                                       two at a time, the longest first
//
// `npm run test:related` (scripts/test-related.mjs) runs those of them whose import closure reaches
// a changed file (relatedTests below), from the same closure.
//
// The command prints the entries `node --test` is given (processEntries below): modules that each
// load several test files, so that they share one process and load the app once (each process
// spends about 2.3 CPU-seconds loading it through tsx: docs/performance.md §1). A file runs in an
// entry of its own only when it measures or mocks its process (its memory, its timers).
//
// A test needs a program when it, or a local module it imports (at any depth), names the
// program's path variable (e.g. `NGINX_PATH` in test/helpers/nginx.ts), imports a browser driver
// or runs a browser suite.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readDurations } from './test-durations.mjs';
import { TOOLS } from './test-tools.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * What marks a module as needing a program: its path variable, loading a browser driver (a type
 * alone loads nothing), or running a browser suite of test/e2e/.
 */
const NEEDS = new RegExp(`\\b(?:${TOOLS.map((tool) => tool.variable).join('|')})\\b|^import (?!type\\b)[^;]*from ['"]puppeteer|test/e2e/[\\w-]+\\.test\\.ts`, 'm');

/**
 * How a module loads another at run time: `import … from`, `export … from`, a bare `import '…'`
 * and `import('…')`, with a relative specifier. Type-only imports load nothing.
 */
const LOADS = /^(?:import|export)(?!\s+type\b)[^;]*?\bfrom\s*['"](\.[^'"]+)['"]|^import\s*['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]/gm;

/** Each module read once, until it changes: path → its size, time, text and local imports. */
const read = new Map();

/**
 * A module's text and the local modules it imports: relative specifiers, resolved as tsx resolves
 * them (`.js` written for a `.ts` or `.tsx` source; JSON as JSON).
 * @param {string} file absolute
 * @returns {{ text: string, imports: string[] }}
 */
function source(file) {
  const { size, mtimeMs } = statSync(file);
  const known = read.get(file);
  if (known?.size === size && known.mtimeMs === mtimeMs) return known;
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(LOADS)].map((m) => /** @type {string} */ (m[1] ?? m[2] ?? m[3]));
  const imports = specifiers.flatMap((specifier) => {
    const base = resolve(dirname(file), specifier);
    const found = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx')].find((path) => /\.(?:m?js|tsx?|json)$/.test(path) && existsSync(path));
    return found ? [found] : [];
  });
  const entry = { size, mtimeMs, text, imports };
  read.set(file, entry);
  return entry;
}

/**
 * A module's import closure: the module itself and every local module it loads, at any depth.
 * @param {string} file absolute
 * @param {Iterable<string>} [skip] absolute paths neither taken in nor followed
 * @returns {Set<string>}
 * @example
 * importClosure(resolve('test/filter.test.ts')).has(resolve('src/filter/canonical.ts')) // true
 */
export function importClosure(file, skip = []) {
  const skipped = new Set(skip);
  const closure = new Set([file]);
  const queue = [file];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    for (const imported of source(next).imports) {
      if (!closure.has(imported) && !skipped.has(imported)) {
        closure.add(imported);
        queue.push(imported);
      }
    }
  }
  return closure;
}

/** What marks a module as starting a process of its own (the app's build or server, npm). */
const SPAWNS = /^import [^;]*from ['"]node:child_process['"]/m;

/** The lanes' own modules name every program, and start processes only when run as commands. */
const LANE_MODULES = ['./test-files.mjs', './test-tools.mjs', './test-related.mjs'].map((path) => fileURLToPath(new URL(path, import.meta.url)));

/**
 * Whether a test file, or a local module it imports at any depth, matches a pattern.
 * @param {string} file absolute
 * @param {RegExp} pattern
 */
const reaches = (file, pattern) => [...importClosure(file, LANE_MODULES)].some((module) => pattern.test(source(module).text));

/**
 * Whether a test file needs one of the programs.
 * @param {string} file absolute
 */
export const needsProgram = (file) => reaches(file, NEEDS);

/**
 * Whether a test file starts processes of its own (a build, a server, npm) through its imports.
 * @param {string} file absolute
 */
export const startsProcesses = (file) => reaches(file, SPAWNS);

/** @param {string} dir relative to the root */
const testsIn = (dir) =>
  readdirSync(join(ROOT, dir))
    .filter((name) => /\.test\.tsx?$/.test(name))
    .sort()
    .map((name) => join(ROOT, dir, name));

/**
 * The files of a lane, relative to the root.
 * @param {'quick' | 'programs' | 'all'} lane
 * @returns {string[]}
 */
export function laneFiles(lane) {
  const server = testsIn('test');
  // Files that start processes of their own are the quick lane's long ones: they go first.
  const inProcess = server.filter((file) => !needsProgram(file));
  const spawning = new Set(inProcess.filter(startsProcesses));
  const quick = [...spawning, ...inProcess.filter((file) => !spawning.has(file))];
  const programs = [...server.filter((file) => !quick.includes(file)), ...testsIn('test/e2e')];
  const files = { quick, programs, all: [...programs, ...quick] }[lane];
  return files.map((file) => relative(ROOT, file));
}

/**
 * What marks a test file as one that measures or replaces something of its whole process (its
 * memory after a forced collection, its timers): a file run before it in the same process, whose
 * servers may still be open, would disturb it.
 */
const OWN_PROCESS = /\bmemoryUsage\b|--expose-gc|\bmock\.timers\b/;

/**
 * Whether a test file can share its process with other files: it neither measures nor mocks its
 * process (its own text says so).
 * @param {string} file absolute
 */
export const sharesProcess = (file) => !OWN_PROCESS.test(source(file).text);

/** How many groups the files that share a process and need no program are split into: `test:quick`'s slots. */
export const GROUPS = 3;

/**
 * How many files that need a program a group holds on average: they are few and long (a browser
 * suite takes 15–60 s), so they go in more groups than the others, each small against the lane.
 */
export const PROGRAM_GROUP_SIZE = 4;

/**
 * How long one test file may take, in ms, by lane: as when each file had a process of its own
 * (`npm test` 180 s, `npm run test:quick` 60 s). `node --test`'s own `--test-timeout` bounds a
 * whole entry in Node 20, so package.json gives it room for a group (docs/qa-kit.md §1).
 */
export const FILE_TIMEOUT = { all: 180_000, quick: 60_000 };

/**
 * How long each file is expected to take, in ms: its last duration (scripts/test-durations.mjs),
 * else its size in bytes scaled as the sizes of the files of known duration scale to their times
 * (before any run, the bytes alone).
 * @param {string[]} files relative to the root
 * @returns {Map<string, number>}
 */
function expectedTimes(files) {
  const last = readDurations();
  const bytes = new Map(files.map((file) => [file, statSync(join(ROOT, file)).size]));
  const known = files.filter((file) => last[file] !== undefined);
  const sum = (/** @type {number[]} */ values) => values.reduce((a, b) => a + b, 0);
  const perByte = known.length > 0 ? sum(known.map((file) => last[file] ?? 0)) / sum(known.map((file) => bytes.get(file) ?? 0)) : 1;
  return new Map(files.map((file) => [file, last[file] ?? (bytes.get(file) ?? 0) * perByte]));
}

/**
 * Splits files into at most `count` groups of about equal expected time, longest file first to
 * the group with the least so far; each group keeps the order given.
 * @param {string[]} files relative to the root
 * @param {number} count
 * @param {Map<string, number>} times expected ms per file
 * @returns {string[][]} no group empty
 */
function balanced(files, count, times) {
  /** @type {Array<{ ms: number, files: string[] }>} */
  const groups = Array.from({ length: Math.min(count, files.length) }, () => ({ ms: 0, files: [] }));
  const longestFirst = [...files].sort((a, b) => (times.get(b) ?? 0) - (times.get(a) ?? 0) || a.localeCompare(b));
  for (const file of longestFirst) {
    const least = groups.reduce((a, b) => (b.ms < a.ms ? b : a));
    least.files.push(file);
    least.ms += times.get(file) ?? 0;
  }
  return groups.map((group) => files.filter((file) => group.files.includes(file)));
}

/**
 * The entries `node --test` runs for some test files (docs/qa-kit.md §1), each a module that loads
 * its files one after the other, each in a suite named by its path and bounded by `timeout`
 * (scripts/test-group.mjs), so their tests run in one process, file by file, in the order given:
 * the files that need a program, {@link PROGRAM_GROUP_SIZE} to a group on average; the other files
 * that can share a process, in {@link GROUPS} groups; and each file that cannot, alone. Groups are
 * balanced by the files' expected times, and the entries are given longest first, so that no long
 * one is begun last. The entries are written under `dist-test/test-groups/`: not inside
 * `node_modules`, where Node 22 and later never match a `node --test` argument.
 * @param {string[]} files relative to the root, in the order they would run
 * @param {string} name names the entries (`quick-1.test.mjs`, …)
 * @param {{ timeout: number }} limits `timeout`: how long one file may take, in ms
 * @returns {string[]} the entries, relative to the root
 * @example
 * processEntries(['test/shutdown.test.ts', 'test/filter.test.ts', 'test/logs.test.ts'], 'quick', { timeout: 60_000 })
 * // ['dist-test/test-groups/quick-1.test.mjs', …]
 */
export function processEntries(files, name, { timeout }) {
  const shared = files.filter((file) => sharesProcess(join(ROOT, file)));
  const programs = shared.filter((file) => needsProgram(join(ROOT, file)));
  const rest = shared.filter((file) => !programs.includes(file));
  const times = expectedTimes(files);
  const groupTime = (/** @type {string[]} */ group) => group.reduce((ms, file) => ms + (times.get(file) ?? 0), 0);
  const groups = [
    ...balanced(programs, Math.ceil(programs.length / PROGRAM_GROUP_SIZE), times),
    ...balanced(rest, GROUPS, times),
    ...files.filter((file) => !shared.includes(file)).map((file) => [file]),
  ].sort((a, b) => groupTime(b) - groupTime(a));
  const dir = join(ROOT, 'dist-test', 'test-groups');
  mkdirSync(dir, { recursive: true });
  const runner = pathToFileURL(fileURLToPath(new URL('./test-group.mjs', import.meta.url))).href;
  const entries = groups.map((group, i) => {
    const entry = join(dir, `${name}-${i + 1}.test.mjs`);
    // Whole or not at all: another run of the same lane may be reading it.
    const written = `${entry}.${process.pid}.tmp`;
    const loaded = group.map((file) => `  ${JSON.stringify([file, pathToFileURL(join(ROOT, file)).href])},`);
    writeFileSync(written, `// Test files that share one process (scripts/test-files.mjs, docs/qa-kit.md §1).\nimport { shareProcess } from ${JSON.stringify(runner)};\n\nawait shareProcess([\n${loaded.join('\n')}\n], { timeout: ${timeout} });\n`);
    renameSync(written, entry);
    return relative(ROOT, entry);
  });
  // Entries of an earlier run with more groups than this one.
  const current = new Set(entries.map((entry) => join(ROOT, entry)));
  const ofThisName = (/** @type {string} */ entry) => entry.startsWith(`${name}-`) && /^\d+\.test\.mjs$/.test(entry.slice(name.length + 1));
  for (const old of readdirSync(dir).filter(ofThisName)) if (!current.has(join(dir, old))) rmSync(join(dir, old), { force: true });
  return entries;
}

/**
 * The test files whose import closure reaches any of the changed files, as `npm run test:related`
 * runs them (docs/qa-kit.md §1): a changed test file reaches itself; a file no test imports, at any
 * depth, selects none.
 * @param {string[]} changed absolute paths
 * @param {string[]} [tests] the candidates, absolute: by default every file of the lanes, in the
 *   order `npm test` runs them
 * @returns {{ files: string[], reached: Map<string, number> }} the candidates chosen, in their
 *   order, and for each changed file how many of them reach it
 * @example
 * relatedTests([resolve('scripts/test-files.mjs')]).files // [<root>/test/test-lanes.test.ts, …]
 */
export function relatedTests(changed, tests = laneFiles('all').map((file) => join(ROOT, file))) {
  const reached = new Map(changed.map((file) => [file, 0]));
  const files = tests.filter((test) => {
    const closure = importClosure(test);
    const hits = changed.filter((file) => closure.has(file));
    for (const file of hits) reached.set(file, (reached.get(file) ?? 0) + 1);
    return hits.length > 0;
  });
  return { files, reached };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const lane = process.argv[2];
  if (lane !== 'quick' && lane !== 'programs' && lane !== 'all') {
    console.error('usage: node scripts/test-files.mjs quick|programs|all');
    process.exit(2);
  }
  const entries = lane === 'programs' ? laneFiles(lane) : processEntries(laneFiles(lane), lane, { timeout: FILE_TIMEOUT[lane] });
  console.log(entries.join('\n'));
}

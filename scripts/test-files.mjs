// The test files of a lane (docs/qa-kit.md §1), derived from the files themselves, never listed:
//
//   node scripts/test-files.mjs quick → every server test (test/*.test.ts, .tsx) whose modules need none
//                                       of the programs of scripts/test-tools.mjs, those that
//                                       start processes of their own first (the long ones)
//   node scripts/test-files.mjs programs → the rest: the server tests that need one, and the browser
//                                       suites (test/e2e/*.test.ts)
//   node scripts/test-files.mjs all   → both, the programs' first: `npm test` runs them two at a
//                                       time, and the long files begun first leave no long tail
//
// A test needs a program when it, or a local module it imports (at any depth), names the
// program's path variable (e.g. `NGINX_PATH` in test/helpers/nginx.ts), imports a browser driver
// or runs a browser suite.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TOOLS } from './test-tools.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * What marks a module as needing a program: its path variable, loading a browser driver (a type
 * alone loads nothing), or running a browser suite of test/e2e/.
 */
const NEEDS = new RegExp(`\\b(?:${TOOLS.map((tool) => tool.variable).join('|')})\\b|^import (?!type\\b)[^;]*from ['"]puppeteer|test/e2e/[\\w-]+\\.test\\.ts`, 'm');

/**
 * The local modules a module imports: relative specifiers, resolved as tsx resolves them (`.js`
 * written for a `.ts` or `.tsx` source).
 * @param {string} file absolute
 * @returns {string[]}
 */
function localImports(file) {
  const text = readFileSync(file, 'utf8');
  // Type-only imports load nothing at run time.
  const specifiers = [...text.matchAll(/^(?:import|export)(?!\s+type\b)[^;]*?\bfrom\s*['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]/gm)].map((m) => /** @type {string} */ (m[1] ?? m[2]));
  return specifiers.flatMap((specifier) => {
    const base = resolve(dirname(file), specifier);
    const found = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx')].find((path) => /\.(?:m?js|tsx?)$/.test(path) && existsSync(path));
    return found ? [found] : [];
  });
}

/** What marks a module as starting a process of its own (the app's build or server, npm). */
const SPAWNS = /^import [^;]*from ['"]node:child_process['"]/m;

/**
 * Whether a test file, or a local module it imports at any depth, matches a pattern.
 * @param {string} file absolute
 * @param {RegExp} pattern
 */
function reaches(file, pattern) {
  // The lanes' own modules name every program without running any.
  const seen = new Set([file, fileURLToPath(import.meta.url), fileURLToPath(new URL('./test-tools.mjs', import.meta.url))]);
  const queue = [file];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    if (pattern.test(readFileSync(next, 'utf8'))) return true;
    for (const imported of localImports(next)) {
      if (!seen.has(imported)) {
        seen.add(imported);
        queue.push(imported);
      }
    }
  }
  return false;
}

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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const lane = process.argv[2];
  if (lane !== 'quick' && lane !== 'programs' && lane !== 'all') {
    console.error('usage: node scripts/test-files.mjs quick|programs|all');
    process.exit(2);
  }
  console.log(laneFiles(lane).join('\n'));
}

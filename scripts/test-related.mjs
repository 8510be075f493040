// npm run test:related [files…] (docs/qa-kit.md §1): the test files of the lanes whose import
// closure reaches the given files, or, with none given, those `git status` shows changed (staged,
// unstaged or untracked). A deleted file is ignored; a file no test imports selects none.
//
// The type check runs beside the build and the tests (tsx runs the tests without types): the time
// is the longer of the two, not their sum. The files run with the settings of the lane they come
// from: two at a time when one needs a program (`npm test`), three otherwise (`npm run test:quick`).
import { execFileSync, spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { INPUTS } from '../build/fingerprint.mjs';
import { FILE_TIMEOUT, laneFiles, needsProgram, processEntries, relatedTests } from './test-files.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The paths `git status --porcelain=v1 -z` names: changed, staged or unstaged, and untracked; of a
 * rename or copy the new path only. Deleted ones are among them: the caller keeps files only.
 * @param {string} status the command's output
 * @returns {string[]} relative to the repository's root
 * @example
 * statusPaths('M  src/app.ts\0R  new.ts\0old.ts\0?? notes.md\0') // ['src/app.ts', 'new.ts', 'notes.md']
 */
export function statusPaths(status) {
  const fields = status.split('\0');
  const paths = [];
  for (let i = 0; i < fields.length; i++) {
    const field = /** @type {string} */ (fields[i]);
    if (field.length < 4) continue; // the empty field after the last NUL
    paths.push(field.slice(3));
    if (/[RC]/.test(field.slice(0, 2))) i++; // the field after a rename or copy is its old path
  }
  return paths;
}

/**
 * What a run of `test:related` chose and why, in one line.
 * @param {Map<string, number>} reached changed file (relative) → how many chosen files reach it
 * @param {number} chosen
 * @param {number} of all the candidates
 * @example
 * summary(new Map([['src/app.ts', 75]]), 75, 90) // '75 of 90 test files import src/app.ts (at any depth)'
 */
export function summary(reached, chosen, of) {
  const hits = [...reached].filter(([, count]) => count > 0);
  const named = hits.length === 1 ? /** @type {[string, number]} */ (hits[0])[0] : `what changed: ${hits.slice(0, 4).map(([file, count]) => `${file} (${count})`).join(', ')}${hits.length > 4 ? ` and ${hits.length - 4} more` : ''}`;
  return `${chosen} of ${of} test files import ${named} (at any depth)`;
}

/** The commands running now (a stop signal to the command is passed on to them). */
const running = new Set();

/**
 * Runs a command from the root; its output goes to ours, or is kept for later.
 * @param {string} command
 * @param {string[]} args
 * @param {{ keep?: boolean }} [options]
 * @returns {Promise<{ code: number, output: string }>}
 */
function run(command, args, { keep = false } = {}) {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: keep ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    running.add(child);
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('error', fail);
    child.on('close', (code, signal) => {
      running.delete(child);
      done({ code: code ?? (signal ? 1 : 0), output });
    });
  });
}

/** @param {string} path absolute */
const isFile = (path) => statSync(path, { throwIfNoEntry: false })?.isFile() === true;

async function main() {
  const named = process.argv.slice(2);
  // npm runs scripts from the root: paths on the command line are from where it was typed.
  const from = process.env.INIT_CWD ?? process.cwd();
  const top = named.length > 0 ? '' : execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: ROOT, encoding: 'utf8' }).trim();
  const paths = named.length > 0 ? named.map((path) => resolve(from, path)) : statusPaths(execFileSync('git', ['status', '--porcelain=v1', '-z', '--untracked-files=all'], { cwd: ROOT, encoding: 'utf8' })).map((path) => join(top, path));
  const changed = paths.filter(isFile);
  const shown = (/** @type {string} */ file) => relative(ROOT, file);
  if (changed.length === 0) {
    console.log(`test:related: ${named.length > 0 ? 'none of the given paths is a file' : 'git status shows no changed file'}: nothing to run`);
    return 0;
  }
  const candidates = laneFiles('all').map((file) => join(ROOT, file));
  const { files, reached } = relatedTests(changed, candidates);
  const unreached = changed.filter((file) => reached.get(file) === 0);
  if (unreached.length > 0) console.log(`test:related: no test file of the lanes imports ${unreached.map(shown).join(', ')}`);
  // Browser code (islands/runtime/), images and the like reach tests only through dist/.
  const built = unreached.filter((file) => INPUTS.some((input) => file === join(ROOT, input) || file.startsWith(join(ROOT, input) + sep)));
  if (built.length > 0) console.log(`test:related: the build reads ${built.map(shown).join(', ')}: tests that load ${built.length === 1 ? 'it' : 'them'} from dist/ alone, as the browser suites load islands/runtime/, are not found through imports (npm test runs them)`);
  if (files.length === 0) {
    console.log('test:related: nothing to run');
    return 0;
  }
  console.log(`test:related: ${summary(new Map([...reached].map(([file, count]) => [shown(file), count])), files.length, candidates.length)}`);

  let stopped = false;
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    process.on(signal, function forward() {
      stopped = true;
      for (const child of running) child.kill(signal);
    });
  }
  const typecheck = run(join(ROOT, 'node_modules', '.bin', 'tsc'), ['--noEmit'], { keep: true });
  const programs = files.some(needsProgram);
  // As package.json's test and test:quick: `--test-timeout` bounds a whole entry, FILE_TIMEOUT each file.
  const [concurrency, timeout, lane] = programs ? [2, 900000, /** @type {const} */ ('all')] : [3, 300000, /** @type {const} */ ('quick')];
  let code = programs ? (await run(process.execPath, ['scripts/ensure-test-tools.mjs'])).code : 0;
  if (code === 0 && !stopped) code = (await run(process.execPath, ['build.mjs'])).code;
  // The tests' own build, as every test script makes it (package.json's build:test).
  if (code === 0 && !stopped) code = (await run('npm', ['run', '-s', 'build:test'])).code;
  if (code === 0 && !stopped) {
    const node = ['--import', 'tsx', '--import', './src/env.ts', '--test', `--test-concurrency=${concurrency}`, `--test-timeout=${timeout}`, ...['spec', './scripts/test-durations.mjs'].flatMap((reporter) => [`--test-reporter=${reporter}`, '--test-reporter-destination=stdout'])];
    // As the lanes run them: the files that can share a process in group entries (test-files.mjs).
    code = (await run(process.execPath, [...node, ...processEntries(files.map(shown), 'related', { timeout: FILE_TIMEOUT[lane] })])).code;
  }
  const typed = await typecheck;
  if (stopped) return 1;
  process.stdout.write(typed.code === 0 ? 'test:related: tsc --noEmit passed\n' : `test:related: tsc --noEmit failed:\n${typed.output}`);
  return code || typed.code;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = await main();

/**
 * Test helpers for whole-project runs: a throw-away copy of the project (so tests can edit
 * its sources or prune its packages), and processes started in it whose output is watched,
 * stopped however a test ends ({@link withProcess}).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { waitFor } from './app.js';
import { useResource } from './suite.js';
import { ALLOCATOR_ENV, NODE_FLAGS } from '../../scripts/production-env.mjs';
import { SERVER_PROCESS_BUNDLE } from '../fixtures/server-process-bundle.mjs';

/** What a project copy holds besides `node_modules` (and, where asked, `dist`). */
export const SOURCES = ['package.json', 'package-lock.json', 'tsconfig.json', 'build.mjs', 'build', 'src', 'protocol', 'views', 'islands', 'images', 'public', 'scripts'];

/** What a copy needs to run the production bundle: no sources, no node_modules of its own. */
export const BUNDLE_FILES = ['package.json', 'dist', 'public'];

/** A temporary copy of the project. */
export interface ProjectCopy {
  dir: string;
  remove(): Promise<void>;
}

/**
 * Copies the project into a temporary folder.
 * @param options `modules`: `link` symlinks this project's node_modules (fast, read-only use),
 *   `hardlink` copies it as hard links (so `npm prune` in the copy leaves ours alone);
 *   `files`: what to copy (default: the sources); `parent`: where (default: the system's temporary folder)
 */
export async function copyProject({ modules = 'link', files = SOURCES, parent = tmpdir() }: { modules?: 'link' | 'hardlink'; files?: string[]; parent?: string } = {}): Promise<ProjectCopy> {
  await mkdir(parent, { recursive: true });
  const dir = await mkdtemp(join(parent, 'eiland-project-'));
  await Promise.all(files.map((f) => cp(f, join(dir, f), { recursive: true })));
  if (modules === 'link') await symlink(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
  else await run('cp', ['-al', resolve('node_modules'), join(dir, 'node_modules')]);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Registers `before`/`after` hooks in the current suite (or file) that make a {@link copyProject}
 * and remove it.
 * @param options as for {@link copyProject}
 * @returns the copy, valid inside the suite's tests: its `dir` is the copy the hook made
 * @throws Error when `dir` is read outside the suite's tests
 */
export function useProjectCopy(options: Parameters<typeof copyProject>[0] = {}): ProjectCopy {
  return useResource('useProjectCopy()', () => copyProject(options), (copy) => copy.remove());
}

/**
 * Runs a command to its end.
 * @returns its output (stdout and stderr)
 * @throws Error with the output when it exits with another code than 0
 */
export function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolvePromise(output) : reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`))));
  });
}

/** A process started in its own process group, with everything it printed. */
export interface WatchedProcess {
  child: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
  /** Waits until the output matches `pattern` (searching from `from`), returning the match. */
  waitFor(pattern: RegExp, ms?: number, from?: number): Promise<RegExpExecArray>;
  /**
   * Signals the whole process group and waits for the exit; a group still there after `graceMs`
   * (default {@link STOP_GRACE_MS}) gets SIGKILL, so a stop never waits forever.
   * @returns the exit code, or the name of the signal that ended it
   */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<number | string>;
}

/** How long {@link WatchedProcess.stop} waits before SIGKILL: longer than the server's own drain (10 s). */
const STOP_GRACE_MS = 15_000;

/**
 * Starts a command in its own process group (so `npm run …` and what it starts stop together).
 * @param env the whole environment of the process
 */
export function startProcess(command: string, args: string[], { cwd, env }: { cwd: string; env: NodeJS.ProcessEnv }): WatchedProcess {
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString('utf8')));
  const exited = new Promise<number | string>((r) => child.on('exit', (code, signal) => r(code ?? signal ?? -1)));
  let done = false;
  void exited.then(() => (done = true));
  return {
    child,
    output: () => output,
    exited,
    async waitFor(pattern, ms = 20_000, from = 0) {
      let match: RegExpExecArray | null = null;
      await waitFor(() => (match = pattern.exec(output.slice(from))) !== null || done, ms).catch(() => {
        throw new Error(`no ${pattern} within ${ms} ms; output:\n${output}`);
      });
      if (!match) throw new Error(`exited before ${pattern}; output:\n${output}`);
      return match;
    },
    async stop(signal = 'SIGTERM', graceMs = STOP_GRACE_MS) {
      const kill = (sent: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, sent);
        } catch {
          // already gone
        }
      };
      if (done) return exited;
      kill(signal);
      const killer = setTimeout(() => done || kill('SIGKILL'), graceMs);
      try {
        return await exited;
      } finally {
        clearTimeout(killer);
      }
    },
  };
}

/** A `server_started` log line, with the port in group 1. */
const SERVER_STARTED = /"event":"server_started"[^\n]*"port":(\d+)/;

/**
 * The environment of a production process: NODE_ENV unset, as an operator would have it, the
 * allocator settings of `npm start`, `PORT=0`, `LOG_LEVEL=info` and the render cache's verify
 * guard on (as in every test; docs/streaming.md §6) unless `extra` says otherwise.
 */
export function productionEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...ALLOCATOR_ENV, PORT: '0', LOG_LEVEL: 'info', RENDER_CACHE_VERIFY: '1' };
  delete env.NODE_ENV;
  return { ...env, ...extra };
}

/** A production bundle started by {@link startBundle}. */
export interface RunningBundle {
  server: WatchedProcess;
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
}

/**
 * Starts `node dist/server/main.js` in a folder (a project copy with `dist/`) with
 * {@link productionEnv} and waits for its `server_started` line.
 * @param extra environment added to the production one
 * @throws Error with its output when it exits or is not started within `ms` (it is stopped)
 */
export function startBundle(cwd: string, extra: NodeJS.ProcessEnv = {}, ms = 20_000): Promise<RunningBundle> {
  return started(startProcess(process.execPath, [...NODE_FLAGS, 'dist/server/main.js'], { cwd, env: productionEnv(extra) }), ms);
}

/**
 * Waits for a server process's `server_started` line.
 * @param signal how to stop it when the line does not come
 * @throws Error with its output when it exits or is not started within `ms` (it is stopped)
 */
async function started(server: WatchedProcess, ms: number, signal: NodeJS.Signals = 'SIGTERM'): Promise<RunningBundle> {
  try {
    const port = Number((await server.waitFor(SERVER_STARTED, ms))[1]);
    return { server, port, url: `http://127.0.0.1:${port}` };
  } catch (error) {
    await server.stop(signal);
    throw error;
  }
}

/**
 * Runs `npm start` (the build, then the bundle with plain node) in a folder (a project copy with
 * its sources) in its own process group, with {@link productionEnv}, and waits for its
 * `server_started` line.
 * @param extra environment added to the production one
 * @throws Error with its output when it exits or is not started within `ms` (it is killed)
 */
export function npmStart(cwd: string, extra: NodeJS.ProcessEnv = {}, ms = 60_000): Promise<RunningBundle> {
  return started(startProcess('npm', ['start'], { cwd, env: productionEnv(extra) }), ms, 'SIGKILL');
}

/** Something {@link withProcess} can stop: a {@link RunningBundle}, or any start that names its process `server`. */
interface StartedProcess {
  server: WatchedProcess;
}

/**
 * Starts a process, runs a step with it, and stops it afterwards — `server.stop()`, SIGKILL after
 * {@link STOP_GRACE_MS} — also when the step fails (a process that already exited is left as it is).
 * @param start starts it and resolves once it is ready, e.g. `() => startBundle(project.dir)`
 * @param step gets what `start` resolved to
 * @param signal how to stop it (default SIGTERM: the drain of a graceful shutdown)
 * @returns what the step returns
 * @throws what `start` throws (it stops what it started), or what the step throws (after the stop)
 */
export async function withProcess<R extends StartedProcess, T>(start: () => Promise<R>, step: (running: R) => Promise<T>, signal: NodeJS.Signals = 'SIGTERM'): Promise<T> {
  const running = await start();
  try {
    return await step(running);
  } finally {
    await running.server.stop(signal);
  }
}

/**
 * Registers `before`/`after` hooks in the current suite that start a process and stop it
 * afterwards (`server.stop()`, SIGKILL after {@link STOP_GRACE_MS}). What the process needs (a
 * {@link useProjectCopy}) is made in an enclosing suite or at the top of the file, so it
 * outlives the process.
 * @param start starts it and resolves once it is ready, e.g. `() => startBundle(project.dir)`
 * @returns what `start` resolved to, valid inside the suite's tests (each member is read from it)
 * @throws Error when a member is read outside the suite's tests, naming the member
 */
export function useProcess<R extends StartedProcess>(start: () => Promise<R>): R {
  return useResource('useProcess()', start, (running) => running.server.stop());
}

/** test/fixtures/server-process.ts running as a process of its own (see {@link startFixtureServer}). */
interface RunningFixtureServer extends RunningBundle {
  /** Its log lines so far, parsed (every line it writes is JSON). */
  lines(): Array<Record<string, unknown>>;
}

/**
 * Starts test/fixtures/server-process.ts — the app with the test-only routes (test/fixtures/test-routes.tsx) —
 * as its own process, from its bundle (`npm run build:test`, test/fixtures/build-server-process.mjs),
 * with {@link productionEnv} (NODE_ENV unset) and a database in a temporary folder (removed when it
 * is stopped), and waits for its `server_started` line.
 * @param extra environment added to the production one
 * @throws Error with its output when it exits or is not started within `ms` (it is stopped)
 */
export async function startFixtureServer(extra: NodeJS.ProcessEnv = {}, ms = 15_000): Promise<RunningFixtureServer> {
  const server = await spawnFixtureServer(extra);
  const running = await started(server, ms);
  return { ...running, lines: () => jsonLines(server) };
}

/** A process's output, one parsed JSON value per line (every line the server writes is JSON). */
const jsonLines = (server: WatchedProcess) =>
  server
    .output()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/**
 * Spawns test/fixtures/server-process.ts as {@link startFixtureServer} does, without waiting for
 * its start (`HOLD_START_UNTIL_SIGNAL=1` holds it until a SIGTERM).
 * @param extra environment added to the production one
 * @returns the process; its stop removes its database's folder
 * @throws Error when the bundle has not been built, saying how to build it
 */
export async function spawnFixtureServer(extra: NodeJS.ProcessEnv = {}): Promise<WatchedProcess & { lines(): Array<Record<string, unknown>> }> {
  const { env, main } = SERVER_PROCESS_BUNDLE;
  if (!existsSync(main)) throw new Error(`${relative(process.cwd(), main)} is missing: run "npm run build:test" (every test script runs it)`);
  const dir = await mkdtemp(join(tmpdir(), 'eiland-proc-'));
  const watched = startProcess(process.execPath, [...NODE_FLAGS, '--import', pathToFileURL(env).href, main, join(dir, 'eiland.db')], { cwd: process.cwd(), env: productionEnv(extra) });
  const server: WatchedProcess = {
    ...watched,
    async stop(signal, graceMs) {
      const code = await watched.stop(signal, graceMs);
      await rm(dir, { recursive: true, force: true });
      return code;
    },
  };
  return { ...server, lines: () => jsonLines(server) };
}

/**
 * Test helpers for whole-project runs: a throw-away copy of the project (so tests can edit
 * its sources or prune its packages), and processes started in it whose output is watched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { waitFor } from './app.js';
import { ALLOCATOR_ENV } from '../../scripts/allocator-env.mjs';

/** What a project copy holds besides `node_modules` (and, where asked, `dist`). */
export const SOURCES = ['package.json', 'package-lock.json', 'tsconfig.json', 'build.mjs', 'build', 'src', 'protocol', 'views', 'islands', 'images', 'public', 'scripts'];

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
  /** Signals the whole process group and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

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
    async stop(signal = 'SIGTERM') {
      if (!done) {
        try {
          process.kill(-child.pid!, signal);
        } catch {
          // already gone
        }
      }
      return exited;
    },
  };
}

/** A `server_started` log line, with the port in group 1. */
export const SERVER_STARTED = /"event":"server_started"[^\n]*"port":(\d+)/;

/**
 * The environment of a production process: NODE_ENV unset, as an operator would have it, the
 * allocator settings of `npm start`, `PORT=0` and `LOG_LEVEL=info` unless `extra` says otherwise.
 */
export function productionEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...ALLOCATOR_ENV, PORT: '0', LOG_LEVEL: 'info' };
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
export async function startBundle(cwd: string, extra: NodeJS.ProcessEnv = {}, ms = 20_000): Promise<RunningBundle> {
  const server = startProcess(process.execPath, ['dist/server/main.js'], { cwd, env: productionEnv(extra) });
  try {
    const port = Number((await server.waitFor(SERVER_STARTED, ms))[1]);
    return { server, port, url: `http://127.0.0.1:${port}` };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

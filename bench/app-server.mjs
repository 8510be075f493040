// Starting and stopping the benchmark's comparison apps (bench/next, bench/astro): run their
// install and build commands, start their server on a free loopback port, find the process that
// serves it, stop it. Node built-ins and the project's own scripts only: the root `npm install` never
// installs those folders.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { freePort } from '../scripts/started-port.mjs';

/** Every comparison app listens on loopback only. */
export const HOST = '127.0.0.1';

/**
 * Runs a command in a folder, its output on stderr (the benchmark's stdout stays its own).
 * @throws Error naming the command and how it ended, when it fails
 */
export function run(command, args, { cwd, env }) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(process.stderr, { end: false });
    child.stderr.pipe(process.stderr, { end: false });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolvePromise() : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`}) in ${cwd}`)),
    );
  });
}

/** A file's modification time in ms, 0 when it is missing. */
export const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : 0);

/** The newest modification time of a file or of any file below a folder. */
export function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), stat.mtimeMs);
}

/** The process and all its descendants, parents first (Linux /proc). */
function processTree(pid) {
  const children = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const list = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (list) children.push(...list.split(/\s+/).map(Number));
    }
  } catch {
    // gone, or no /proc: just the process itself
  }
  return [pid, ...children.flatMap(processTree)];
}

/** Inodes of the sockets listening on a TCP port (Linux /proc/net/tcp and tcp6). */
function listeningInodes(port) {
  const inodes = new Set();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // cols: sl, local_address, rem_address, st (0A = LISTEN), …, inode (index 9)
      if (cols.length > 9 && cols[1].endsWith(`:${hexPort}`) && cols[3] === '0A') inodes.add(cols[9]);
    }
  }
  return inodes;
}

/**
 * The pid of the process that serves the port: the one in the spawned process's tree holding
 * the listening socket. `next start` 16 serves from the process it runs in (no fork), so today
 * this is the spawned pid; the lookup keeps RSS readings right should a later Next fork a
 * server child, and tells our server from another one on the port.
 * @returns the pid; undefined when no process of the tree listens on the port; the spawned
 *   pid itself where there is no /proc to look in
 */
function servingPid(rootPid, port) {
  if (!existsSync('/proc/net/tcp')) return rootPid;
  const wanted = new Set([...listeningInodes(port)].map((inode) => `socket:[${inode}]`));
  if (wanted.size === 0) return undefined;
  for (const pid of processTree(rootPid)) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        try {
          if (wanted.has(readlinkSync(`/proc/${pid}/fd/${fd}`))) return pid;
        } catch {
          // fd closed meanwhile
        }
      }
    } catch {
      // process gone or not ours to read
    }
  }
  return undefined;
}

/** Whether a port on loopback can be bound now. */
function portFree(port) {
  return new Promise((resolvePromise) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', () => resolvePromise(false));
    probe.listen(port, HOST, () => probe.close(() => resolvePromise(true)));
  });
}

/** GET a path on loopback; resolves with the status code. */
function status(port, path) {
  return new Promise((resolvePromise, reject) => {
    const req = get({ host: HOST, port, path, agent: false, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => resolvePromise(res.statusCode));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Sends a signal, then SIGKILL after a grace period; resolves once the processes are gone. */
async function terminate(child, pids, graceMs = 5000) {
  const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r));
  for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && pids.some(alive)) await sleep(50);
  for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
  await exited;
  while (pids.some(alive)) await sleep(20); // a zombie of ours is reaped with the exit event
}

async function startOnce({ name, command, args, cwd, env }, port, readyTimeoutMs) {
  const child = spawn(command, args(port), { cwd, env: env(port), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-8192);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', (chunk) => {
    keep(chunk);
    process.stderr.write(chunk); // errors of the app stay visible
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let exitCode;
  child.once('exit', (code, signal) => (exitCode = signal ?? code));

  const deadline = Date.now() + readyTimeoutMs;
  let pid;
  for (;;) {
    if (exitCode !== undefined) {
      process.removeListener('exit', killOnExit);
      const error = new Error(`${name} exited (${exitCode}) before serving on ${HOST}:${port}:\n${output}`);
      error.addressInUse = /EADDRINUSE|is (already )?in use/i.test(output);
      throw error;
    }
    try {
      // Only our server counts: another one on the port must not pass for it.
      if ((await status(port, '/')) === 200 && (pid = servingPid(child.pid, port)) !== undefined) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await terminate(child, processTree(child.pid));
      process.removeListener('exit', killOnExit);
      throw new Error(`${name} did not answer GET / with 200 within ${readyTimeoutMs} ms:\n${output}`);
    }
    await sleep(100);
  }

  let stopping;
  return {
    port,
    pid,
    url: `http://${HOST}:${port}`,
    stop() {
      stopping ??= terminate(child, [...new Set([pid, ...processTree(child.pid)])]).finally(() => process.removeListener('exit', killOnExit));
      return stopping;
    },
  };
}

/**
 * Starts an app's server on 127.0.0.1 and waits until `GET /` answers 200 from it.
 * @param {{ name: string, command: string, args: (port: number) => string[], cwd: string, env: (port: number) => NodeJS.ProcessEnv }} app
 *   how to start it: `args` and `env` get the port to listen on
 * @param {{ port?: number, readyTimeoutMs?: number }} [options] port 0 (the default) picks a free
 *   one, retried if taken meanwhile
 * @returns {Promise<{ port: number, pid: number, url: string, stop: () => Promise<void> }>}
 *   `pid` is the process serving the requests (the one holding the listening socket; read
 *   /proc/<pid>/status for its RSS); `stop()` sends SIGTERM (SIGKILL after 5 s) and resolves
 *   once it has exited
 * @throws Error when the server exits or does not answer in time
 */
export async function startAppServer(app, { port = 0, readyTimeoutMs = 30_000 } = {}) {
  for (let attempt = 1; ; attempt++) {
    if (port && !(await portFree(port))) throw new Error(`Port ${port} on ${HOST} is in use`);
    const chosen = port || (await freePort());
    try {
      return await startOnce(app, chosen, readyTimeoutMs);
    } catch (error) {
      if (port || !error.addressInUse || attempt >= 3) throw error;
    }
  }
}

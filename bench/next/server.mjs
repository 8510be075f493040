// The benchmark's handle on the Next.js comparison app (README.md): install and build it
// when needed, start `next start` on loopback, find the process that serves, stop it.
// Node built-ins only: the root `npm install` never installs this folder's packages.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeRules } from './write-rules.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const EILAND = resolve(HERE, '../..');
const NEXT_BIN = join(HERE, 'node_modules', 'next', 'dist', 'bin', 'next');
const HOST = '127.0.0.1';

/** Sources of the build in this folder. */
const OWN_SOURCES = ['pages', 'lib', 'public', 'next.config.mjs', 'package.json', 'package-lock.json', 'rules.json'];
/** The Eiland files the pages import: views/Layout.tsx, views/pages/Start.tsx, views/styles.css, the island, its imports, the storage module. */
const EILAND_SOURCES = ['views', 'islands', 'protocol', 'src/storage', 'src/errors.ts'];

/** The environment of every Next command: production, no telemetry. */
function nextEnv(extra = {}) {
  return { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', ...extra };
}

/** Runs a command in this folder, its output on stderr (the benchmark's stdout stays its own). */
function run(command, args, env = nextEnv()) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: HERE, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(process.stderr, { end: false });
    child.stderr.pipe(process.stderr, { end: false });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolvePromise() : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`}) in ${HERE}`)),
    );
  });
}

const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : 0);

/** The newest modification time of a file or of any file below a folder. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), stat.mtimeMs);
}

/**
 * Makes the app ready to start: installs its packages (`npm ci`) when node_modules is
 * missing or older than package-lock.json, writes rules.json (Eiland's derived rule list;
 * rewritten only when it changed), and runs `next build` (Turbopack) when `.next/BUILD_ID`
 * is missing or older than any source here or in the Eiland files the pages import. Output
 * of npm and Next goes to stderr.
 * @returns {Promise<{ installed: boolean, installMs: number, built: boolean, buildMs: number }>}
 *   what was done and how long it took (0 when skipped)
 * @throws Error when the repository root is not installed (better-sqlite3, tsx and validator
 *   come from its node_modules), or when npm ci, the rule list or next build fails
 */
export async function prepareNext() {
  for (const name of ['better-sqlite3', 'tsx', 'validator']) {
    if (!existsSync(join(EILAND, 'node_modules', name))) {
      throw new Error(`${name} is missing from ${join(EILAND, 'node_modules')}: run npm install in the repository root first`);
    }
  }
  const result = { installed: false, installMs: 0, built: false, buildMs: 0 };

  // npm ci writes node_modules/.package-lock.json last: its age is the install's.
  const lock = join(HERE, 'package-lock.json');
  if (!existsSync(NEXT_BIN) || mtime(join(HERE, 'node_modules', '.package-lock.json')) < mtime(lock)) {
    const started = performance.now();
    await run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['ci', '--no-audit', '--no-fund']);
    result.installed = true;
    result.installMs = Math.round(performance.now() - started);
  }

  await writeRules();

  const sources = [...OWN_SOURCES.map((p) => join(HERE, p)), ...EILAND_SOURCES.map((p) => join(EILAND, p))];
  const buildId = join(HERE, '.next', 'BUILD_ID');
  // `.next/turbopack` marks a build of the default bundler: a manual `next build --webpack` is redone.
  if (!existsSync(buildId) || !existsSync(join(HERE, '.next', 'turbopack')) || mtime(buildId) < Math.max(...sources.map(newest))) {
    const started = performance.now();
    await run(process.execPath, [NEXT_BIN, 'build']);
    result.built = true;
    result.buildMs = Math.round(performance.now() - started);
  }
  return result;
}

/** A port free on loopback now (`next start` needs a concrete one). */
function freePort() {
  return new Promise((resolvePromise, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, HOST, () => {
      const { port } = probe.address();
      probe.close(() => resolvePromise(port));
    });
  });
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

async function startOnce(port, dbFile, readyTimeoutMs) {
  const child = spawn(process.execPath, [NEXT_BIN, 'start', '-p', String(port), '-H', HOST], {
    cwd: HERE,
    env: nextEnv({ EILAND_DB_FILE: dbFile }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
      const error = new Error(`next start exited (${exitCode}) before serving on ${HOST}:${port}:\n${output}`);
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
      throw new Error(`next start did not answer GET / with 200 within ${readyTimeoutMs} ms:\n${output}`);
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
 * Starts the built app with `next start` on 127.0.0.1 (NODE_ENV=production, telemetry off)
 * and waits until `GET /` answers 200. Run {@link prepareNext} first.
 * @param {object} [options]
 * @param {number} [options.port=0] the port; 0 picks a free one (retried if taken meanwhile)
 * @param {string} [options.dbFile] Eiland's SQLite file (created and migrated as Eiland does
 *   when missing); default EILAND_DB_FILE, else data/eiland.db in the repository
 * @param {number} [options.readyTimeoutMs=30000] how long to wait for the first 200
 * @returns {Promise<{ port: number, pid: number, url: string, stop: () => Promise<void> }>}
 *   `pid` is the process serving the requests (the one holding the listening socket; read
 *   /proc/<pid>/status for its RSS); `stop()` sends SIGTERM (SIGKILL after 5 s) and
 *   resolves once it has exited
 * @throws Error when the app is not built, or the server exits or does not answer in time
 */
export async function startNext({ port = 0, dbFile, readyTimeoutMs = 30_000 } = {}) {
  if (!existsSync(join(HERE, '.next', 'BUILD_ID'))) throw new Error(`${relative(process.cwd(), HERE) || '.'} is not built: await prepareNext() first`);
  const file = resolve(dbFile ?? process.env.EILAND_DB_FILE ?? join(EILAND, 'data', 'eiland.db'));
  for (let attempt = 1; ; attempt++) {
    if (port && !(await portFree(port))) throw new Error(`Port ${port} on ${HOST} is in use`);
    const chosen = port || (await freePort());
    try {
      return await startOnce(chosen, file, readyTimeoutMs);
    } catch (error) {
      if (port || !error.addressInUse || attempt >= 3) throw error;
    }
  }
}

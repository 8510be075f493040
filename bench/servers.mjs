// The servers the benchmark compares, each started fresh on loopback with its own copy of one
// SQLite database (so the developer's data/ is never touched and both read the same rows):
//   eiland          node dist/server/main.js, as deployed (a copy of dist/, public/, package.json)
//                   and started (the allocator settings of `npm start`)
//   eiland-nocache  the same with the render cache off (RENDER_CACHE_MAX_BYTES=0)
//   tsx             node --import tsx src/main.ts (the server before the bundle, for comparison)
//   next            the Next.js app of bench/next (next start)
//   astro           the Astro app of bench/astro (@astrojs/node standalone)
//   express, http   the limit: the bytes of Eiland's cached / and /over sent by Express 5 with no
//                   middleware, and by Node's http alone (bench/reference-server.mjs)
//   baseline        Eiland as built at BASELINE_COMMIT, for the A/B of a post's CPU (its posts only)
import { execFileSync, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALLOCATOR_ENV, NODE_FLAGS } from '../scripts/production-env.mjs';
import { BASELINE_COMMIT } from './budgets.mjs';
import { startedPort } from '../scripts/started-port.mjs';
import { fetchRaw } from './page-scripts.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A folder laid out like a deployment: dist/, public/, package.json, node_modules (linked). */
export async function deployment() {
  const dir = await mkdtemp(join(tmpdir(), 'eiland-bench-'));
  await Promise.all(['dist', 'public', 'package.json'].map((f) => cp(join(ROOT, f), join(dir, f), { recursive: true })));
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await mkdir(join(dir, 'data'));
  return { dir, dbFile: join(dir, 'data', 'eiland.db'), remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Eiland at {@link BASELINE_COMMIT}, built and laid out like {@link deployment} (its sources from
 * `git archive`, this checkout's node_modules, which hold every package it names).
 * @returns {Promise<{ dir: string, remove(): Promise<void> }>}
 * @throws when the commit is not in this clone's history or does not build
 */
export async function baselineDeployment() {
  const dir = await mkdtemp(join(tmpdir(), 'eiland-baseline-'));
  execFileSync('tar', ['-x', '-C', dir], { input: execFileSync('git', ['-C', ROOT, 'archive', '--format=tar', BASELINE_COMMIT], { maxBuffer: 512 * 2 ** 20 }) });
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  execFileSync(process.execPath, ['build.mjs'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  await mkdir(join(dir, 'data'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** The pages the reference servers send: Eiland's, as a cache hit sends them. */
export const REFERENCE_PAGES = ['/', '/over'];
/** Headers of a response that belong to its connection or its moment, not to the page. */
const PER_RESPONSE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/**
 * Captures what a running Eiland sends for each of {@link REFERENCE_PAGES} once its render cache
 * holds it (the second request of each), into `<deployed.dir>/reference-pages.json` for
 * bench/reference-server.mjs.
 * @param {number} port a running Eiland's
 * @param {{ dir: string }} deployed
 */
export async function capturePages(port, deployed) {
  const pages = {};
  for (const path of REFERENCE_PAGES) {
    await fetchRaw(port, path);
    const hit = await fetchRaw(port, path);
    const headers = Object.fromEntries(Object.entries(hit.headers).filter(([name]) => !PER_RESPONSE.has(name)));
    pages[path] = { headers, body: hit.body.toString('base64') };
  }
  await writeFile(join(deployed.dir, 'reference-pages.json'), JSON.stringify(pages));
  await buildReferencePost(deployed);
}

/**
 * Bundles the reference's form post (bench/reference-post.ts) into `<deployed.dir>/reference-post.mjs`
 * for bench/reference-server.mjs, as the server's bundle is built: one ESM file for Node, the
 * native addons left to node_modules.
 * @param {{ dir: string }} deployed
 */
async function buildReferencePost(deployed) {
  const esbuild = await import('esbuild');
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [join(ROOT, 'bench', 'reference-post.ts')],
    outfile: join(deployed.dir, 'reference-post.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    jsx: 'automatic',
    external: ['better-sqlite3', 'sharp', 'pg-native'],
    define: { 'process.env.NODE_ENV': '"production"' },
    banner: { js: "import { createRequire as __benchRequire } from 'node:module'; const require = __benchRequire(import.meta.url);" },
    logLevel: 'silent',
  });
}

/** How long a Node server process may take to log `server_started`. */
const START_MS = 60_000;

/**
 * The time of a process's `server_started` line, as it logged it (pino's `time`, epoch ms), read
 * beside {@link startedPort} and no longer once found.
 * @returns {Promise<number | undefined>} undefined when the line has no `time` (the reference servers')
 */
function startedTime(child) {
  return new Promise((resolve) => {
    let buffer = '';
    const onData = (chunk) => {
      buffer += chunk;
      const line = /^[^\n]*"event":"server_started"[^\n]*$/m.exec(buffer)?.[0];
      if (line === undefined) return;
      child.stdout.off('data', onData);
      const time = /"time":(\d+)/.exec(line);
      resolve(time ? Number(time[1]) : undefined);
    };
    child.stdout.on('data', onData);
    child.once('exit', () => resolve(undefined));
  });
}

/** Starts a Node server process, with the allocator settings of `npm start` (Eiland's own flags given in `args`), and waits for its `server_started` line. */
async function startNode(args, { cwd, heapProbe, extraEnv = {} }) {
  const env = { ...process.env, ...ALLOCATOR_ENV, PORT: '0', LOG_LEVEL: 'info', ...extraEnv };
  delete env.NODE_ENV; // production, as an operator runs it
  const probe = heapProbe ? ['--import', join(ROOT, 'bench', 'heap-probe.mjs')] : [];
  const child = spawn(process.execPath, [...probe, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const heap = [];
  child.stderr.on('data', (chunk) => {
    for (const line of String(chunk).split('\n')) {
      if (line.startsWith('{"heapUsed"')) heap.push(JSON.parse(line));
      else if (line.trim() !== '') process.stderr.write(`${line}\n`);
    }
  });
  const time = startedTime(child);
  // Bounded: a process that neither starts nor exits is ended, not waited for.
  let timer;
  const hung = new Promise((_, reject) => {
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`node ${args.join(' ')} did not log server_started within ${START_MS / 1000} s`));
    }, START_MS);
  });
  const port = await Promise.race([startedPort(child), hung]).finally(() => clearTimeout(timer));
  const startedAt = (await time) ?? Date.now();
  return {
    port,
    pid: child.pid,
    /** When it started, epoch ms: the `time` of its `server_started` line, else when that line was read. */
    startedAt,
    /** The last heap figures the probe printed (only with `heapProbe`). */
    heap: () => heap.at(-1),
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Starts one server kind.
 * @param {'eiland'|'eiland-nocache'|'tsx'|'next'|'astro'|'express'|'http'|'baseline'} kind
 * @param {{ dir: string, dbFile: string, baseline?: { dir: string } }} deployed from {@link deployment}
 *   (`baseline`, from {@link baselineDeployment}, for the kind of that name)
 * @param {{ heapProbe?: boolean, env?: Record<string, string> }} [options] heapProbe: Eiland prints
 *   its heap every second; env: variables added to an Eiland kind's environment (`eiland`,
 *   `eiland-nocache`, `tsx`), e.g. `SMTP_URL`
 * @returns {Promise<{ port: number, pid: number, pids?: number[], startedAt?: number, stop(): Promise<void>, heap(): object|undefined }>}
 *   startedAt: epoch ms of its `server_started` line (the kinds started here as Node processes,
 *   not next and astro); pids: every process whose CPU a post costs (next: its sender's too)
 */
export async function startServer(kind, deployed, { heapProbe = false, env = {} } = {}) {
  if (kind === 'eiland') return startNode([...NODE_FLAGS, 'dist/server/main.js'], { cwd: deployed.dir, heapProbe, extraEnv: env });
  if (kind === 'eiland-nocache') return startNode([...NODE_FLAGS, 'dist/server/main.js'], { cwd: deployed.dir, heapProbe, extraEnv: { ...env, RENDER_CACHE_MAX_BYTES: '0' } });
  if (kind === 'baseline') return startNode([...NODE_FLAGS, 'dist/server/main.js'], { cwd: deployed.baseline.dir, heapProbe, extraEnv: env });
  if (kind === 'express' || kind === 'http') return startNode([join(ROOT, 'bench', 'reference-server.mjs'), kind, join(deployed.dir, 'reference-pages.json')], { cwd: deployed.dir, heapProbe });
  if (kind === 'tsx') return startNode([...NODE_FLAGS, '--import', 'tsx', '--import', './src/env.ts', 'src/main.ts'], { cwd: ROOT, heapProbe, extraEnv: env });
  if (kind === 'astro') {
    const { startAstro } = await import('./astro/server.mjs');
    return { ...(await startAstro({ dbFile: deployed.dbFile })), heap: () => undefined };
  }
  const { startNext } = await import('./next/server.mjs');
  const next = await startNext({ dbFile: deployed.dbFile });
  const sender = await startSender(deployed, `http://127.0.0.1:${next.port}`).catch(async (error) => {
    await next.stop();
    throw error;
  });
  return {
    ...next,
    pids: [next.pid, sender.pid],
    heap: () => undefined,
    stop: () => Promise.all([next.stop(), sender.stop()]),
  };
}

/**
 * Eiland's outbox sender in a process of its own on the deployment's database (bench/outbox-sender.ts):
 * the Next peer's e-mails, written to the deployment's `data/mail`.
 * @param {{ dbFile: string }} deployed
 * @param {string} origin the e-mails' links' origin
 * @returns {Promise<{ pid: number, stop(): Promise<void> }>} once it runs
 */
async function startSender(deployed, origin) {
  const args = ['--import', 'tsx', '--import', './src/env.ts', 'bench/outbox-sender.ts', deployed.dbFile, join(dirname(deployed.dbFile), 'mail'), origin];
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...ALLOCATOR_ENV }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench/outbox-sender.ts exited with ${code} before it ran`)));
    child.stdout.on('data', function started(chunk) {
      if (!String(chunk).includes('"event":"sender_started"')) return;
      child.stdout.off('data', started);
      child.stdout.resume();
      resolve(undefined);
    });
  });
  child.removeAllListeners('exit');
  return {
    pid: child.pid,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

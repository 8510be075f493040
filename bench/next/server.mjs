// The benchmark's handle on the Next.js comparison app (README.md): install and build it
// when needed, start `next start` on loopback, find the process that serves, stop it.
// Node built-ins only: the root `npm install` never installs this folder's packages.
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HOST, mtime, newest, run, startAppServer } from '../app-server.mjs';
import { writeRules } from './write-rules.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const EILAND = resolve(HERE, '../..');
const NEXT_BIN = join(HERE, 'node_modules', 'next', 'dist', 'bin', 'next');

/** Sources of the build in this folder. */
const OWN_SOURCES = ['pages', 'lib', 'public', 'next.config.mjs', 'package.json', 'package-lock.json', 'rules.json'];
/** The Eiland files the pages import: views/Layout.tsx, views/pages/Start.tsx, views/styles.css, the island, its imports, the storage module. */
const EILAND_SOURCES = ['views', 'islands', 'protocol', 'src/storage', 'src/errors.ts'];

/** The environment of every Next command: production, no telemetry. */
function nextEnv(extra = {}) {
  return { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', ...extra };
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
    await run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['ci', '--no-audit', '--no-fund'], { cwd: HERE, env: nextEnv() });
    result.installed = true;
    result.installMs = Math.round(performance.now() - started);
  }

  await writeRules();

  const sources = [...OWN_SOURCES.map((p) => join(HERE, p)), ...EILAND_SOURCES.map((p) => join(EILAND, p))];
  const buildId = join(HERE, '.next', 'BUILD_ID');
  // `.next/turbopack` marks a build of the default bundler: a manual `next build --webpack` is redone.
  if (!existsSync(buildId) || !existsSync(join(HERE, '.next', 'turbopack')) || mtime(buildId) < Math.max(...sources.map(newest))) {
    const started = performance.now();
    await run(process.execPath, [NEXT_BIN, 'build'], { cwd: HERE, env: nextEnv() });
    result.built = true;
    result.buildMs = Math.round(performance.now() - started);
  }
  return result;
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
  const app = { name: 'next start', command: process.execPath, args: (p) => [NEXT_BIN, 'start', '-p', String(p), '-H', HOST], cwd: HERE, env: () => nextEnv({ EILAND_DB_FILE: file }) };
  return startAppServer(app, { port, readyTimeoutMs });
}

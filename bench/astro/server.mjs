// The benchmark's handle on the Astro comparison app (README.md): install and build it when
// needed, start its standalone Node server on loopback, stop it. Node built-ins only: the root
// `npm install` never installs this folder's packages.
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HOST, mtime, newest, run, startAppServer } from '../app-server.mjs';
import { writeRules } from '../next/write-rules.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const EILAND = resolve(HERE, '../..');
const ASTRO_BIN = join(HERE, 'node_modules', 'astro', 'astro.js');
const ENTRY = join(HERE, 'dist', 'server', 'entry.mjs');

/** Sources of the build in this folder. */
const OWN_SOURCES = ['src', 'public', 'astro.config.mjs', 'package.json', 'package-lock.json', '../next/rules.json'];
/** The Eiland files the pages import: the layout's navigation, the start page's hero sizes, the image helper, styles, the island, the storage module. */
const EILAND_SOURCES = ['views', 'islands', 'protocol', 'src/storage', 'src/errors.ts'];

/** The environment of every Astro command: production, no telemetry. */
function astroEnv(extra = {}) {
  return { ...process.env, NODE_ENV: 'production', ASTRO_TELEMETRY_DISABLED: '1', ...extra };
}

/**
 * Makes the app ready to start: installs its packages from package-lock.json when node_modules is
 * missing or older than the lock (`npm install --no-save`, not `npm ci`: npm 11 writes Astro's
 * lock without rollup's binaries for other platforms and then refuses it in `npm ci` as out of
 * sync), writes the rule list it shares with the Next app, and runs `astro build` when the server
 * entry is missing or older than any source here or in the Eiland files the pages import. Output
 * of npm and Astro goes to stderr.
 * @returns {Promise<{ installed: boolean, built: boolean }>} what was done
 * @throws Error when the repository root is not installed, or when the install, the rule list or the build fails
 */
export async function prepareAstro() {
  if (!existsSync(join(EILAND, 'node_modules', 'better-sqlite3'))) throw new Error(`better-sqlite3 is missing from ${join(EILAND, 'node_modules')}: run npm install in the repository root first`);
  const result = { installed: false, built: false };
  if (!existsSync(ASTRO_BIN) || mtime(join(HERE, 'node_modules', '.package-lock.json')) < mtime(join(HERE, 'package-lock.json'))) {
    await run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['install', '--no-save', '--no-audit', '--no-fund'], { cwd: HERE, env: astroEnv() });
    result.installed = true;
  }
  await writeRules();
  const sources = [...OWN_SOURCES.map((p) => join(HERE, p)), ...EILAND_SOURCES.map((p) => join(EILAND, p))];
  if (!existsSync(ENTRY) || mtime(ENTRY) < Math.max(...sources.map(newest))) {
    await run(process.execPath, [ASTRO_BIN, 'build'], { cwd: HERE, env: astroEnv() });
    result.built = true;
  }
  return result;
}

/**
 * Starts the built app's standalone server on 127.0.0.1 and waits until `GET /` answers 200.
 * Run {@link prepareAstro} first.
 * @param {{ port?: number, dbFile?: string, readyTimeoutMs?: number }} [options] `dbFile`:
 *   Eiland's SQLite file; default EILAND_DB_FILE, else data/eiland.db in the repository
 * @returns {Promise<{ port: number, pid: number, url: string, stop: () => Promise<void> }>}
 * @throws Error when the app is not built, or the server exits or does not answer in time
 */
export async function startAstro({ port = 0, dbFile, readyTimeoutMs = 30_000 } = {}) {
  if (!existsSync(ENTRY)) throw new Error(`${relative(process.cwd(), HERE) || '.'} is not built: await prepareAstro() first`);
  const file = resolve(dbFile ?? process.env.EILAND_DB_FILE ?? join(EILAND, 'data', 'eiland.db'));
  // @astrojs/node's standalone server listens where HOST and PORT say.
  const app = { name: 'the Astro server', command: process.execPath, args: () => [ENTRY], cwd: HERE, env: (p) => astroEnv({ EILAND_DB_FILE: file, HOST, PORT: String(p) }) };
  return startAppServer(app, { port, readyTimeoutMs });
}

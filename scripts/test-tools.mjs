// The programs from Debian that the tests drive (docs/qa-kit.md §1): each with its package, where it
// is looked for, and the variable that overrides that path. scripts/ensure-test-tools.mjs installs
// the missing ones; scripts/test-files.mjs keeps the tests that need any of them out of the quick lane.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Debian's PostgreSQL server programs: /usr/lib/postgresql/<major>/bin (PG_BIN overrides). */
export function postgresBin() {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((d) => existsSync(join(root, d, 'bin', 'initdb'))) : [];
  const newest = majors.sort((a, b) => Number(b) - Number(a))[0];
  return join(root, newest ?? '<version>', 'bin');
}

/**
 * The `java` the HTML check runs (docs/qa-kit.md §6): JAVA_PATH, else the first on PATH, else
 * where Debian's default-jre-headless puts it.
 */
function javaPath() {
  if (process.env.JAVA_PATH) return process.env.JAVA_PATH;
  const onPath = (process.env.PATH ?? '').split(':').filter((dir) => dir !== '').map((dir) => join(dir, 'java'));
  const found = onPath.find((file) => existsSync(file));
  return found ?? '/usr/bin/java';
}

/** Debian package → the program the tests run and the variable that overrides its path. */
export const TOOLS = [
  { pkg: 'chromium', path: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', variable: 'CHROMIUM_PATH' },
  { pkg: 'firefox-esr', path: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr', variable: 'FIREFOX_PATH' },
  { pkg: 'lynx', path: process.env.LYNX_PATH ?? '/usr/bin/lynx', variable: 'LYNX_PATH' },
  { pkg: 'postgresql', path: join(postgresBin(), 'initdb'), variable: 'PG_BIN' },
  { pkg: 'nginx', path: process.env.NGINX_PATH ?? '/usr/sbin/nginx', variable: 'NGINX_PATH' },
  { pkg: 'prometheus', path: process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus', variable: 'PROMETHEUS_PATH' },
  { pkg: 'default-jre-headless', path: javaPath(), variable: 'JAVA_PATH' },
];

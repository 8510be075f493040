// Part of `npm test` and `npm run test:e2e`: the tests drive real programs from Debian —
// Chromium and Firefox ESR for the browser suites, lynx for what text browsers read, PostgreSQL's
// server programs (initdb, pg_ctl) for a throw-away cluster of the storage tests, nginx in front of
// two instances, Prometheus (and its promtool) scraping the metrics listener, Java for the Nu Html
// Checker (vnu.jar from npm's vnu-jar). Those missing are installed through apt (saying so) when
// we run as root; otherwise the script fails with the command to run. Each path can be overridden
// (CHROMIUM_PATH, FIREFOX_PATH, LYNX_PATH, PG_BIN, NGINX_PATH, PROMETHEUS_PATH, JAVA_PATH;
// PROMTOOL_PATH for promtool).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Debian's PostgreSQL server programs: /usr/lib/postgresql/<major>/bin (PG_BIN overrides). */
function postgresBin() {
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
const TOOLS = [
  { pkg: 'chromium', path: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', variable: 'CHROMIUM_PATH' },
  { pkg: 'firefox-esr', path: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr', variable: 'FIREFOX_PATH' },
  { pkg: 'lynx', path: process.env.LYNX_PATH ?? '/usr/bin/lynx', variable: 'LYNX_PATH' },
  { pkg: 'postgresql', path: join(postgresBin(), 'initdb'), variable: 'PG_BIN' },
  { pkg: 'nginx', path: process.env.NGINX_PATH ?? '/usr/sbin/nginx', variable: 'NGINX_PATH' },
  { pkg: 'prometheus', path: process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus', variable: 'PROMETHEUS_PATH' },
  { pkg: 'default-jre-headless', path: javaPath(), variable: 'JAVA_PATH' },
];

const missing = TOOLS.filter((tool) => !existsSync(tool.path));
if (missing.length > 0) {
  const packages = missing.map((t) => t.pkg);
  const install = `apt-get update && apt-get install -y --no-install-recommends ${packages.join(' ')}`;
  const what = missing.map((t) => `${t.pkg} (${t.path})`).join(', ');
  if (process.getuid?.() !== 0) {
    console.error(`Missing for the tests: ${what}. Install with: sudo sh -c '${install}' (or set ${missing.map((t) => t.variable).join(', ')}).`);
    process.exit(1);
  }
  console.log(`Missing for the tests: ${what}: installing Debian's ${packages.join(' and ')} through apt (${install}) …`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { stdio: 'inherit', env });
  const still = missing.filter((t) => !existsSync(t.pkg === 'postgresql' ? join(postgresBin(), 'initdb') : t.path));
  if (still.length > 0) {
    console.error(`apt installed ${packages.join(' ')}, but ${still.map((t) => t.path).join(', ')} is still missing: set ${still.map((t) => t.variable).join(', ')}.`);
    process.exit(1);
  }
}

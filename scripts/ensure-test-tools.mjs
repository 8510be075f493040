// Part of `npm test` and `npm run test:e2e`: the tests drive real programs from Debian —
// Chromium and Firefox ESR for the browser suites, lynx for what text browsers read, PostgreSQL's
// server programs (initdb, pg_ctl) for a throw-away cluster of the storage tests, nginx in front of
// two instances, Prometheus (and its promtool) scraping the metrics listener, Java for the Nu Html
// Checker (vnu.jar from npm's vnu-jar). Those missing are installed through apt (saying so) when
// we run as root; otherwise the script fails with the command to run. Each path can be overridden
// (CHROMIUM_PATH, FIREFOX_PATH, LYNX_PATH, PG_BIN, NGINX_PATH, PROMETHEUS_PATH, JAVA_PATH;
// PROMTOOL_PATH for promtool).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { postgresBin, TOOLS } from './test-tools.mjs';

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

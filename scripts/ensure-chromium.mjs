// Part of `npm test`: the browser tests drive Debian's Chromium. When it is
// missing and we run as root, install it through apt (saying so); otherwise
// fail with the command to run.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(path)) {
  const install = 'apt-get update && apt-get install -y --no-install-recommends chromium';
  if (process.getuid?.() !== 0) {
    console.error(`Chromium is missing at ${path}. Install it with: sudo sh -c '${install}' (or set CHROMIUM_PATH).`);
    process.exit(1);
  }
  console.log(`Chromium is missing at ${path}: installing Debian's chromium through apt (${install}) …`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env });
  if (!existsSync(path)) {
    console.error(`apt installed chromium, but ${path} is still missing: set CHROMIUM_PATH.`);
    process.exit(1);
  }
}

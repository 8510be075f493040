/**
 * The development entry (`npm run dev` runs its bundle in a process the runner started,
 * scripts/dev-server.mjs; docs/development.md §1): the production server on a loopback port the
 * runner's front forwards to, with the client build the runner feeds over IPC and the
 * development steps in its pipeline (src/dev/steps.tsx).
 */
import { join } from 'node:path';
import { PROJECT_ROOT } from '../project-root.js';
import { runServerProcess } from '../process.js';
import { ALLOWED_HOSTS_VARIABLE, parseAllowedHosts } from './allowed-hosts.js';
import type { ServerMessage } from './ipc.js';
import { developmentAssets } from './page-build.js';
import { developmentSteps } from './steps.js';

/** Where `npm run dev` builds (scripts/dev.mjs writes the same folder). */
const DEV_BUILD_DIR = join(PROJECT_ROOT, '.eiland', 'dev');

const send = (message: ServerMessage) => process.send?.(message);
const running = await runServerProcess('development', () => {
  const assets = developmentAssets(DEV_BUILD_DIR);
  process.on('message', (message) => {
    const id = assets.build.receive(message);
    if (id !== undefined) send({ type: 'showing', id });
  });
  // The runner hands down the names its front answers (docs/development.md §6).
  const allowedHosts = parseAllowedHosts(process.env[ALLOWED_HOSTS_VARIABLE]);
  return { assets, steps: developmentSteps(assets.build, allowedHosts) };
});
if (running) send({ type: 'listening', port: Number(new URL(running.url).port) });
// Under the runner: when it goes, so does this server.
process.once('disconnect', () => void running?.shutdown('disconnect').then(() => process.exit(0)));

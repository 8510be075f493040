/**
 * The development entry (`npm run dev` runs its bundle as a child of the runner, scripts/dev.mjs;
 * docs/development.md §1): the production server, with the client build the runner feeds over
 * IPC and the development app around it.
 */
import { join } from 'node:path';
import { PROJECT_ROOT } from '../project-root.js';
import { runServerProcess } from '../process.js';
import { developmentApp } from './app.js';
import { developmentAssets } from './feed.js';
import type { ServerMessage } from './ipc.js';

/** Where `npm run dev` builds (scripts/dev.mjs writes the same folder). */
const DEV_BUILD_DIR = join(PROJECT_ROOT, '.eiland', 'dev');

const running = await runServerProcess('development', () => {
  const assets = developmentAssets(DEV_BUILD_DIR);
  process.on('message', (message) => assets.feed.receive(message));
  // The runner answers with the newest build (or failure), which may be newer than the file.
  process.send?.({ type: 'ready' } satisfies ServerMessage);
  return { assets, wrap: (app, { lifecycle }) => developmentApp(app, { feed: assets.feed, lifecycle }) };
});
// Under the runner: when it goes, so does this server.
process.once('disconnect', () => void running?.shutdown('disconnect').then(() => process.exit(0)));

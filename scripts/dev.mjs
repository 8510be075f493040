// `npm run dev` (docs/development.md §1): the development runner.
//
// It listens on PORT itself (scripts/dev-front.mjs): it answers only its own names (localhost, the
// loopback addresses, HOST and DEV_ALLOWED_HOSTS; docs/development.md §6), serves the reload
// channel (/_eiland/reload) and forwards every other request to the server process it runs on a
// loopback port, which checks the same names again. It builds client and server into .eiland/dev
// (unminified, source maps) and rebuilds what each change touches (build/watch.mjs); what each
// batch of builds does to the servers and the open pages is scripts/dev-runner.mjs, the server
// processes scripts/dev-processes.mjs.
// Logs are pretty-printed (pino-pretty). Ctrl-C (or SIGTERM) stops everything.
// The servers run without --enable-source-maps: Node parses the bundle's map at start, on every
// restart (docs/development.md §1); NODE_OPTIONS=--enable-source-maps buys mapped stack traces at
// that price.
import { join } from 'node:path';
import { ROOT, watch } from '../build/index.mjs';
import { BuildFeed } from '../src/dev/feed.js';
import { openFront } from './dev-front.mjs';
import { Spares } from './dev-processes.mjs';
import { DevRunner } from './dev-runner.mjs';

const OUT = join(ROOT, '.eiland', 'dev'); // src/dev/main.ts reads the same folder

/** @param {string} line */
const say = (line) => process.stderr.write(`[eiland dev] ${line}\n`);

const feed = new BuildFeed('');
const { front, allowedHosts } = await openFront(feed, say);
const runner = new DevRunner({ out: OUT, front, feed, spares: new Spares(allowedHosts), say });
const watcher = await watch({ out: OUT, onBatch: (batch) => runner.onBatch(batch) });

// Ready once the watcher's first scan is done: from here on every edit is seen.
runner.watching = true;
if (runner.current) say(`ready at ${front.url}`);
else say('watching for changes; the server starts after the next good build');

// Ctrl-C reaches the runner (and its server) once from the terminal and once more from npm:
// the first stops everything, the others change nothing.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, async () => {
    if (runner.stopping) return;
    await runner.stop();
    await watcher.dispose();
    process.exit(0);
  });
}

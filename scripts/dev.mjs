// `npm run dev` (product.md §11): the development runner.
//
// It builds client and server into .eiland/dev (unminified, source maps) and rebuilds what each
// change touches (build.mjs `watch`), runs the server bundle as a child process with
// NODE_ENV=development on one port, and:
//   - after a good client build, sends the child the new manifest over IPC; the child's reload
//     channel (/_eiland/reload) tells open pages to reload;
//   - after a good server build (src/, views/, islands/ rendered on the server), restarts the
//     child on the same port at once (the new child asks for the newest manifest when it is up);
//     open pages reconnect, see a new build id and reload;
//   - after a failed build, keeps the last good build running, prints esbuild's error with
//     file and line, and sends it to the child, whose pages show it as an overlay until the
//     next good build.
// Logs are pretty-printed (pino-pretty). Ctrl-C (or SIGTERM) stops everything.
// The child runs without --enable-source-maps: Node parses the bundle's map at start (~0.3 s per
// restart); NODE_OPTIONS=--enable-source-maps buys mapped stack traces at that price.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { prettyFactory } from 'pino-pretty';
import { ROOT, SERVER_ENTRY, watch } from '../build.mjs';

const OUT = join(ROOT, '.eiland', 'dev'); // src/main.ts reads the same folder in development
/** A child that has not exited this long after SIGTERM is killed: in development a restart
 * should not wait for the 10 s drain of production (a request then in flight is the developer's). */
const STOP_MS = 500;

const prettify = prettyFactory({ colorize: process.stdout.isTTY, ignore: 'pid,hostname' });
const say = (line) => process.stderr.write(`[eiland dev] ${line}\n`);

/** The port the first child bound: every restart binds it again (PORT=0 picks one once). */
let port = process.env.PORT ?? '3000';
let child;
let stopping = false;
/** The last good client manifest, and each build's last failure until its next good build. */
let manifest;
const failures = { client: undefined, server: undefined };
/** A good server bundle exists (the child cannot start before). */
let serverBuilt = false;

const failure = () => [failures.client, failures.server].filter(Boolean).join('\n\n') || undefined;
const send = (message) => child?.connected && child.send(message);

/** Tells the running server what pages should show: the newest good client, or the failure. */
function announce() {
  const pending = failure();
  if (pending) send({ type: 'build-failed', message: pending });
  else if (manifest) send({ type: 'client-built', manifest });
}

function start() {
  const current = fork(join(OUT, SERVER_ENTRY), [], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'development', PORT: port },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  child = current;
  // The server asks once it listens for messages (one sent earlier could be lost).
  current.on('message', (message) => message?.type === 'ready' && current === child && announce());
  createInterface({ input: current.stdout }).on('line', (line) => {
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      process.stdout.write(`${line}\n`);
      return;
    }
    process.stdout.write(prettify(entry));
    if (entry.event === 'server_started') {
      port = String(entry.port);
      say(`ready at http://${entry.host.includes(':') ? `[${entry.host}]` : entry.host}:${entry.port}`);
    }
  });
  current.on('exit', (code, signal) => {
    if (child === current) child = undefined;
    if (!stopping && !current.restarting) say(`the server exited (${signal ?? `code ${code}`}); it starts again after the next good build`);
  });
}

/** Stops the child: SIGTERM, then SIGKILL after STOP_MS. */
async function stop() {
  const current = child;
  if (!current || current.exitCode !== null || current.signalCode !== null) return;
  current.restarting = true;
  const exited = new Promise((resolve) => current.once('exit', resolve));
  current.kill('SIGTERM');
  const timer = setTimeout(() => current.kill('SIGKILL'), STOP_MS);
  await exited;
  clearTimeout(timer);
}

let restarting = Promise.resolve();
function restart() {
  restarting = restarting.then(async () => {
    if (stopping) return;
    await stop();
    if (!stopping) start();
  });
}

const watcher = await watch({
  out: OUT,
  onBuild(event) {
    const [kind, result] = Object.entries(event)[0];
    if (!result.ok) {
      failures[kind] = result.message;
      say(`${kind} build failed; the last good build keeps running:\n${result.colored}`);
      announce();
      return;
    }
    if (failures[kind] !== undefined) say(`${kind} build fixed`);
    failures[kind] = undefined;
    if (kind === 'client') manifest = result.manifest;
    if (kind === 'server') serverBuilt = true;
    // A new server: open pages reconnect, see a new build id and reload (it asks for the newest
    // manifest once up). A new client for the running server: its pages are told to reload.
    if (kind === 'server' || !child) {
      if (manifest && serverBuilt) restart();
    } else announce();
  },
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    stopping = true;
    await restarting;
    await stop();
    await watcher.dispose();
    process.exit(0);
  });
}

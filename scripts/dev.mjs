// `npm run dev` (docs/development.md §1): the development runner.
//
// It builds client and server into .eiland/dev (unminified, source maps) and rebuilds what each
// change touches (build/watch.mjs), runs the server bundle (src/dev/main.ts) as a child process
// with NODE_ENV=development on one port, and:
//   - after a good client build, sends the child the new manifest over IPC; the child's reload
//     channel (/_eiland/reload) tells open pages to reload;
//   - after a good server build (src/, protocol/, views/, islands/ rendered on the server),
//     restarts the child on the same port at once (the new child asks for the newest manifest
//     when it is up); open pages reconnect, see a new build id and reload;
//   - after a failed build, keeps the last good build running, prints esbuild's error with
//     file and line, and sends it to the child, whose pages show it as an overlay until the
//     next good build.
// Logs are pretty-printed (pino-pretty). Ctrl-C (or SIGTERM) stops everything.
// The child runs without --enable-source-maps: Node parses the bundle's map at start (~0.3 s per
// restart); NODE_OPTIONS=--enable-source-maps buys mapped stack traces at that price.
/** @import { ChildProcess } from 'node:child_process' */
/** @import { BuildManifest } from '../protocol/manifest.js' */
/** @import { RunnerMessage, ServerMessage } from '../src/dev/ipc.js' */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { prettyFactory } from 'pino-pretty';
import { ROOT, SERVER_ENTRY, watch } from '../build/index.mjs';

const OUT = join(ROOT, '.eiland', 'dev'); // src/dev/main.ts reads the same folder
/** A child that has not exited this long after SIGTERM is killed: in development a restart
 * should not wait for the 10 s drain of production (a request then in flight is the developer's). */
const STOP_MS = 500;

const prettify = prettyFactory({ colorize: process.stdout.isTTY, ignore: 'pid,hostname' });
/** @param {string} line */
const say = (line) => process.stderr.write(`[eiland dev] ${line}\n`);

/** The port the first child bound: every restart binds it again (PORT=0 picks one once). */
let port = process.env.PORT ?? '3000';
/** @type {ChildProcess | undefined} */
let child;
/** Children being replaced: their exit is expected. */
const replaced = new WeakSet();
let stopping = false;
/** @type {BuildManifest | undefined} the last good client manifest */
let manifest;
/** @type {{ client: string | undefined, server: string | undefined }} each build's last failure until its next good build */
const failures = { client: undefined, server: undefined };
/** A good server bundle exists (the child cannot start before). */
let serverBuilt = false;

const failure = () => [failures.client, failures.server].filter(Boolean).join('\n\n') || undefined;
/** @param {RunnerMessage} message */
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
  current.on('message', (/** @type {ServerMessage} */ message) => message?.type === 'ready' && current === child && announce());
  if (current.stdout) createInterface({ input: current.stdout }).on('line', (line) => {
    /** @type {{ event?: string, port?: number, host?: string } & Record<string, unknown>} */
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      process.stdout.write(`${line}\n`);
      return;
    }
    process.stdout.write(prettify(entry));
    if (entry.event === 'server_started' && entry.host !== undefined) {
      port = String(entry.port);
      say(`ready at http://${entry.host.includes(':') ? `[${entry.host}]` : entry.host}:${entry.port}`);
    }
  });
  current.on('exit', (code, signal) => {
    if (child === current) child = undefined;
    if (!stopping && !replaced.has(current)) say(`the server exited (${signal ?? `code ${code}`}); it starts again after the next good build`);
  });
}

/** Stops the child: SIGTERM, then SIGKILL after STOP_MS. */
async function stop() {
  const current = child;
  if (!current || current.exitCode !== null || current.signalCode !== null) return;
  replaced.add(current);
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
    const kind = 'client' in event ? 'client' : 'server';
    const result = 'client' in event ? event.client : event.server;
    if (!result.ok) {
      failures[kind] = result.message;
      say(`${kind} build failed; the last good build keeps running:\n${result.colored}`);
      announce();
      return;
    }
    if (failures[kind] !== undefined) say(`${kind} build fixed`);
    failures[kind] = undefined;
    if (result.manifest) manifest = result.manifest;
    if (kind === 'server') serverBuilt = true;
    // A new server: open pages reconnect, see a new build id and reload (it asks for the newest
    // manifest once up). A new client for the running server: its pages are told to reload.
    if (kind === 'server' || !child) {
      if (manifest && serverBuilt) restart();
    } else announce();
  },
});

// Ctrl-C reaches the runner (and its child) once from the terminal and once more from npm:
// the first stops everything, the others change nothing.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await restarting;
    await stop();
    await watcher.dispose();
    process.exit(0);
  });
}

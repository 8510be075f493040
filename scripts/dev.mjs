// `npm run dev` (docs/development.md §1): the development runner.
//
// It listens on PORT itself (src/dev/front.ts): it answers only its own names (localhost, the
// loopback addresses, HOST and DEV_ALLOWED_HOSTS; docs/development.md §6), serves the reload
// channel (/_eiland/reload) and forwards every other request to the server process it runs on a
// loopback port, which checks the same names again. It builds
// client and server into .eiland/dev (unminified, source maps) and rebuilds what each change
// touches (build/watch.mjs), and:
//   - after a good server build, starts the new server in a process that has already loaded the
//     packages the bundle takes from node_modules (scripts/dev-server.mjs), gives it the client
//     build, points the front at it, tells open pages to reload, and only then stops the old one:
//     the open streams stay connected, and no request meets a server that is starting;
//   - after a good client build, gives the running server the new manifest over IPC and tells
//     open pages to reload;
//   - after a failed build, keeps the last good build running, prints esbuild's error with file
//     and line, and sends it down the reload channel, whose pages show it as an overlay until
//     the next good build.
// Logs are pretty-printed (pino-pretty). Ctrl-C (or SIGTERM) stops everything.
// The servers run without --enable-source-maps: Node parses the bundle's map at start, on every
// restart (docs/development.md §1); NODE_OPTIONS=--enable-source-maps buys mapped stack traces at
// that price.
/** @import { ChildProcess } from 'node:child_process' */
/** @import { BuildManifest } from '../protocol/manifest.js' */
/** @import { RunnerMessage, ServerMessage } from '../src/dev/ipc.js' */
/** @import { BuildOutcome } from '../build/watch.mjs' */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setPriority } from 'node:os';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { prettyFactory } from 'pino-pretty';
import { ROOT, SERVER_ENTRY, watch } from '../build/index.mjs';
import { ALLOWED_HOSTS_VARIABLE, parseAllowedHosts } from '../src/dev/allowed-hosts.js';
import { BuildFeed } from '../src/dev/feed.js';
import { startFront } from '../src/dev/front.js';

const OUT = join(ROOT, '.eiland', 'dev'); // src/dev/main.ts reads the same folder
const WARM_SERVER = join(ROOT, 'scripts', 'dev-server.mjs');
/** An old server that has not exited this long after SIGTERM is killed: in development a restart
 * should not wait for the 10 s drain of production (a request then in flight is the developer's). */
const STOP_MS = 500;
/** How long after a switch the old server stops and warm processes are started again (ms): by
 * then the open pages have reloaded, and the cores are free. */
const SETTLE_AFTER_SWITCH_MS = 300;
/** Warm processes kept ready. One takes a while to load its packages (docs/development.md §1),
 * longer while a page reloads: with two, saves closer together than that still find one ready. */
const SPARES = 2;
/** The nice value of warm processes (and of the servers they become). */
const WARM_NICE = 10;

const prettify = prettyFactory({ colorize: process.stdout.isTTY, ignore: 'pid,hostname' });
/** @param {string} line */
const say = (line) => process.stderr.write(`[eiland dev] ${line}\n`);

/**
 * A server process: started warm (its packages loaded, then `ready`), then running the bundle
 * once told to.
 * @typedef {{ process: ChildProcess, warm: Promise<boolean>, ready: boolean, serial: string }} ServerProcess
 */

/**
 * Starts a server process that loads `packages`, and waits for the word to import the bundle.
 * @param {string[]} packages
 * @returns {ServerProcess}
 */
function startWarm(packages) {
  const child = fork(WARM_SERVER, packages, {
    cwd: ROOT,
    execArgv: [], // not the runner's TypeScript loader: the bundle is plain JavaScript
    // The names the front answers, which the server checks again (docs/development.md §6).
    env: { ...process.env, NODE_ENV: 'development', HOST: '127.0.0.1', PORT: '0', [ALLOWED_HOSTS_VARIABLE]: allowedHosts.join(',') },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  // Loading packages must not slow a build or a reloading page: warm processes run at a lower
  // priority (nice 10), and so does the server one becomes (an unprivileged process cannot
  // raise it again).
  if (child.pid !== undefined) setPriority(child.pid, WARM_NICE);
  if (child.stdout) createInterface({ input: child.stdout }).on('line', (line) => {
    try {
      process.stdout.write(prettify(JSON.parse(line)));
    } catch {
      process.stdout.write(`${line}\n`);
    }
  });
  /** @type {ServerProcess} */
  const server = {
    process: child,
    ready: false,
    serial: randomBytes(4).toString('hex'),
    warm: new Promise((resolve) => {
      child.on('message', (/** @type {{ type?: string }} */ message) => message?.type === 'warm' && resolve((server.ready = true)));
      child.once('exit', () => resolve(false));
    }),
  };
  child.once('exit', () => (spares = spares.filter((spare) => spare !== server)));
  return server;
}

/**
 * The answer of a server process to come, or undefined once it has exited.
 * @template {ServerMessage['type']} T
 * @param {ChildProcess} child
 * @param {T} type
 * @returns {Promise<Extract<ServerMessage, { type: T }> | undefined>}
 */
function answer(child, type) {
  return new Promise((resolve) => {
    const onMessage = (/** @type {ServerMessage} */ message) => {
      if (message?.type !== type) return;
      child.off('exit', onExit);
      child.off('message', onMessage);
      resolve(/** @type {Extract<ServerMessage, { type: T }>} */ (message));
    };
    const onExit = () => {
      child.off('message', onMessage);
      resolve(undefined);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Stops a server process: SIGTERM, then SIGKILL after STOP_MS.
 * @param {ChildProcess} child */
async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_MS);
  await exited;
  clearTimeout(timer);
}

const HOST = process.env.HOST ?? '127.0.0.1';
/** @type {string[]} the names answered besides localhost and the loopback addresses: DEV_ALLOWED_HOSTS,
 * and HOST when it names one interface (the URL `ready at` shows); every interface is no name */
let allowedHosts;
try {
  allowedHosts = parseAllowedHosts(process.env[ALLOWED_HOSTS_VARIABLE]);
} catch (error) {
  say(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
if (!['0.0.0.0', '::'].includes(HOST)) {
  try {
    allowedHosts.push(...parseAllowedHosts(HOST));
  } catch {
    // Not a name: the front cannot listen on it either, and says so below.
  }
}
/** Hosts refused so far: each is said once (a page retrying its reload channel would fill the
 * terminal), the first REFUSED_SAID of them.
 * @type {Set<string | undefined>} */
const refused = new Set();
const REFUSED_SAID = 20;
const feed = new BuildFeed('');
/** @type {import('../src/dev/front.js').Front} */
let front;
try {
  front = await startFront({
    host: HOST,
    port: Number(process.env.PORT ?? '3000'),
    feed,
    allowedHosts,
    onRefused(host) {
      if (refused.has(host) || refused.size >= REFUSED_SAID) return;
      refused.add(host);
      say(`refused a request for host ${host === undefined ? '(none)' : JSON.stringify(host)} (403); to answer it, add its name to ${ALLOWED_HOSTS_VARIABLE}`);
    },
  });
} catch (error) {
  say(`cannot listen: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

/** @type {{ process: ChildProcess, serial: string } | undefined} the server the front forwards to */
let current;
/** @type {ServerProcess[]} the next servers, warm or loading their packages */
let spares = [];
/** @type {string[]} the packages the last good server bundle loads as it starts */
let packages = [];
/** @type {BuildManifest | undefined} the last good client manifest */
let manifest;
/**
 * What open pages are shown until it is mended: each build's last failure until its next good
 * build, and a new server that stopped as it started until one starts.
 * @type {{ client: string | undefined, server: string | undefined, start: string | undefined }}
 */
const failures = { client: undefined, server: undefined, start: undefined };
let stopping = false;
/** The watcher has done its first scan (`ready at` is said only from then on). */
let watching = false;

const failure = () => [failures.client, failures.server, failures.start].filter(Boolean).join('\n\n') || undefined;
/** @param {{ serial: string }} server */
const idOf = (server) => `${manifest?.buildId}-${server.serial}`;

/**
 * Gives a server the client build and the id its pages show.
 * @param {ChildProcess} child
 * @returns {Promise<boolean>} false when it exited first
 */
async function show(child, /** @type {string} */ id) {
  if (!manifest || !child.connected) return false;
  const shown = answer(child, 'showing');
  child.send(/** @satisfies {RunnerMessage} */ ({ type: 'build', manifest, id }));
  return (await shown) !== undefined;
}

/**
 * Runs the newest server bundle in the warm process (started now if there is none).
 * @returns {Promise<{ process: ChildProcess, serial: string, port: number } | undefined>} the
 *   server once it listens, or undefined when it exited first
 */
async function launch() {
  const server = spares.find((spare) => spare.ready) ?? spares[0] ?? startWarm(packages);
  spares = spares.filter((spare) => spare !== server);
  const listening = answer(server.process, 'listening');
  if (await server.warm) server.process.send({ type: 'start', entry: join(OUT, SERVER_ENTRY) });
  const bound = await listening;
  return bound && { process: server.process, serial: server.serial, port: bound.port };
}

/**
 * Points the front at a launched server once it shows the client build, stops the one it
 * replaces, and starts warm processes for the next restarts.
 * @param {{ process: ChildProcess, serial: string, port: number }} server
 * @returns {Promise<boolean>} false when it exited first
 */
async function switchTo(server) {
  if (!(await show(server.process, idOf(server)))) return false;
  const old = current;
  current = server;
  front.target = server.port;
  server.process.once('exit', (code, signal) => {
    if (current?.process !== server.process) return;
    current = undefined;
    front.target = undefined;
    if (!stopping) say(`the server exited (${signal ?? `code ${code}`}); it starts again after the next good build`);
  });
  if (!old && watching) say(`ready at ${front.url}`);
  // After the open pages have been told (the caller's next step) and have reloaded: the old
  // server's drain and the next warm process would take the cores that reload needs.
  setTimeout(async () => {
    if (old) await stop(old.process);
    while (!stopping && spares.length < SPARES) spares.push(startWarm(packages));
  }, SETTLE_AFTER_SWITCH_MS);
  return true;
}

/** Tells open pages what to show: the failure, or (after a good build) the build now running. */
function announce() {
  const pending = failure();
  if (pending) feed.fail(pending);
  else if (current) feed.show(idOf(current));
}

/**
 * A build's outcome, recorded and printed.
 * @param {'client' | 'server'} kind
 * @param {BuildOutcome | undefined} result
 */
function record(kind, result) {
  if (!result) return;
  if (!result.ok) {
    failures[kind] = result.message;
    say(`${kind} build failed; the last good build keeps running:\n${result.colored}`);
    return;
  }
  if (failures[kind] !== undefined) say(`${kind} build fixed`);
  failures[kind] = undefined;
  if (result.manifest) manifest = result.manifest;
  if (result.packages) packages = result.packages;
}

/** A good server bundle has been written (no server can start before). */
let serverBuilt = false;
/** What open pages show when a new server stopped as it started (its error is in the terminal). */
const STARTUP_FAILED = 'The server stopped as it started: its error is in the terminal of npm run dev.';

const watcher = await watch({
  out: OUT,
  async onBatch({ server, client }) {
    const started = performance.now();
    const serverResult = await server;
    record('server', serverResult);
    serverBuilt ||= serverResult?.ok === true;
    const wanted = serverResult?.ok === true || (!current && serverBuilt);
    // With a client build from before on disk, the new server starts while this one finishes.
    const early = wanted && manifest ? launch() : undefined;
    const clientResult = client && (await client);
    record('client', clientResult);
    const launching = early ?? (wanted && manifest ? launch() : undefined);
    const launched = await launching;
    if (stopping) {
      if (launched) await stop(launched.process);
      return;
    }
    const replacing = current !== undefined;
    if (launching && !(launched && (await switchTo(launched)))) {
      failures.start = STARTUP_FAILED;
      say(STARTUP_FAILED);
    } else if (launching) {
      failures.start = undefined;
      if (replacing) say(`restarted ${(performance.now() - started).toFixed(0)} ms after the build began`);
    } else if (clientResult?.ok && current) await show(current.process, idOf(current));
    announce();
  },
});

// Ready once the watcher's first scan is done: from here on every edit is seen.
watching = true;
if (current) say(`ready at ${front.url}`);
else say('watching for changes; the server starts after the next good build');

// Ctrl-C reaches the runner (and its server) once from the terminal and once more from npm:
// the first stops everything, the others change nothing.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await front.close();
    await Promise.all([current, ...spares].map((server) => server && stop(server.process)));
    await watcher.dispose();
    process.exit(0);
  });
}

// The development runner's server processes (docs/development.md §1): each started warm
// (scripts/dev-server.mjs loads the packages the server bundle takes from node_modules, then
// waits for the word to import the bundle), spoken to over IPC (src/dev/ipc.ts), and stopped.
/** @import { ChildProcess } from 'node:child_process' */
/** @import { ServerMessage } from '../src/dev/ipc.js' */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { prettyFactory } from 'pino-pretty';
import { ROOT } from '../build/index.mjs';
import { ALLOWED_HOSTS_VARIABLE } from '../src/dev/allowed-hosts.js';

const WARM_SERVER = join(ROOT, 'scripts', 'dev-server.mjs');
/** An old server that has not exited this long after SIGTERM is killed: in development a restart
 * should not wait for the 10 s drain of production (a request then in flight is the developer's). */
const STOP_MS = 500;
/** The nice value of warm processes (and of the servers they become). */
const WARM_NICE = 10;

const prettify = prettyFactory({ colorize: process.stdout.isTTY, ignore: 'pid,hostname' });

/**
 * A server process: started warm (its packages loaded, then `ready`), then running the bundle
 * once told to.
 * @typedef {{ process: ChildProcess, warm: Promise<boolean>, ready: boolean, serial: string }} ServerProcess
 */

/**
 * Starts a server process that loads `packages`, and waits for the word to import the bundle.
 * @param {string[]} packages
 * @param {string[]} allowedHosts the names the front answers, which the server checks again
 *   (docs/development.md §6)
 * @returns {ServerProcess}
 */
export function startWarm(packages, allowedHosts) {
  const child = fork(WARM_SERVER, packages, {
    cwd: ROOT,
    execArgv: [], // not the runner's TypeScript loader: the bundle is plain JavaScript
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
  return server;
}

/**
 * The answer of a server process to come, or undefined once it has exited.
 * @template {ServerMessage['type']} T
 * @param {ChildProcess} child
 * @param {T} type
 * @returns {Promise<Extract<ServerMessage, { type: T }> | undefined>}
 */
export function answer(child, type) {
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
export async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_MS);
  await exited;
  clearTimeout(timer);
}

/** The warm processes kept ready for the next restarts, loading the last good bundle's packages. */
export class Spares {
  /** @type {ServerProcess[]} the next servers, warm or loading their packages */
  list = [];
  /** @type {string[]} the packages the last good server bundle loads as it starts */
  packages = [];

  /** @param {string[]} allowedHosts the names the front answers (see {@link startWarm}) */
  constructor(allowedHosts) {
    this.allowedHosts = allowedHosts;
  }

  /**
   * The process the next server runs in: a warm one, else one still loading, else one started now.
   * @returns {ServerProcess}
   */
  take() {
    const server = this.list.find((spare) => spare.ready) ?? this.list[0] ?? this.#start();
    this.list = this.list.filter((spare) => spare !== server);
    return server;
  }

  /** Starts warm processes until `count` are kept. @param {number} count */
  fill(count) {
    while (this.list.length < count) this.list.push(this.#start());
  }

  #start() {
    const server = startWarm(this.packages, this.allowedHosts);
    server.process.once('exit', () => (this.list = this.list.filter((spare) => spare !== server)));
    return server;
  }
}

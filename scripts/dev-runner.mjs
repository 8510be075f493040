// The development runner's state and what a build batch does to it (docs/development.md §1):
//   - after a good server build, the new server starts in a warm process (scripts/dev-processes.mjs),
//     gets the client build, the front points at it, open pages are told to reload, and only then
//     the old one stops: the open streams stay connected, and no request meets a server that is
//     starting;
//   - after a good client build, the running server gets the new manifest over IPC and open pages
//     are told to reload;
//   - after a failed build, the last good build keeps running; esbuild's error, with file and line,
//     is printed and sent down the reload channel, whose pages show it as an overlay until the
//     next good build.
/** @import { ChildProcess } from 'node:child_process' */
/** @import { BuildManifest } from '../protocol/manifest.js' */
/** @import { RunnerMessage } from '../src/dev/ipc.js' */
/** @import { BuildFeed } from '../src/dev/feed.js' */
/** @import { Front } from '../src/dev/front.js' */
/** @import { BuildOutcome } from '../build/watch.mjs' */
/** @import { Spares } from './dev-processes.mjs' */
import { join } from 'node:path';
import { SERVER_ENTRY } from '../build/index.mjs';
import { answer, stop } from './dev-processes.mjs';

/** How long after a switch the old server stops and warm processes are started again (ms): by
 * then the open pages have reloaded, and the cores are free. */
const SETTLE_AFTER_SWITCH_MS = 300;
/** Warm processes kept ready. One takes a while to load its packages (docs/development.md §1),
 * longer while a page reloads: with two, saves closer together than that still find one ready. */
const SPARES = 2;
/** What open pages show when a new server stopped as it started (its error is in the terminal). */
const STARTUP_FAILED = 'The server stopped as it started: its error is in the terminal of npm run dev.';

/** @typedef {{ process: ChildProcess, serial: string, port: number }} LaunchedServer */

/** The runner: the server the front forwards to, the last good builds, what open pages are shown. */
export class DevRunner {
  /** @type {{ process: ChildProcess, serial: string } | undefined} the server the front forwards to */
  current;
  /** @type {BuildManifest | undefined} the last good client manifest */
  manifest;
  /**
   * What open pages are shown until it is mended: each build's last failure until its next good
   * build, and a new server that stopped as it started until one starts.
   * @type {{ client: string | undefined, server: string | undefined, start: string | undefined }}
   */
  failures = { client: undefined, server: undefined, start: undefined };
  /** A good server bundle has been written (no server can start before). */
  serverBuilt = false;
  /** The watcher has done its first scan (`ready at` is said only from then on). */
  watching = false;
  stopping = false;

  /**
   * @param {{ out: string, front: Front, feed: BuildFeed, spares: Spares, say: (line: string) => void }} options
   *   `out` the development build's folder, `front` the runner's front, `feed` what open pages
   *   are shown, `spares` the warm processes, `say` the runner's voice in the terminal
   */
  constructor({ out, front, feed, spares, say }) {
    this.out = out;
    this.front = front;
    this.feed = feed;
    this.spares = spares;
    this.say = say;
  }

  /** @param {{ serial: string }} server */
  idOf(server) {
    return `${this.manifest?.buildId}-${server.serial}`;
  }

  /**
   * Gives a server the client build and the id its pages show.
   * @param {ChildProcess} child
   * @param {string} id
   * @returns {Promise<boolean>} false when it exited first
   */
  async show(child, id) {
    if (!this.manifest || !child.connected) return false;
    const shown = answer(child, 'showing');
    child.send(/** @satisfies {RunnerMessage} */ ({ type: 'build', manifest: this.manifest, id }));
    return (await shown) !== undefined;
  }

  /**
   * Runs the newest server bundle in a warm process (started now if there is none).
   * @returns {Promise<LaunchedServer | undefined>} the server once it listens, or undefined when
   *   it exited first
   */
  async launch() {
    const server = this.spares.take();
    const listening = answer(server.process, 'listening');
    if (await server.warm) server.process.send({ type: 'start', entry: join(this.out, SERVER_ENTRY) });
    const bound = await listening;
    return bound && { process: server.process, serial: server.serial, port: bound.port };
  }

  /**
   * Points the front at a launched server once it shows the client build, stops the one it
   * replaces, and starts warm processes for the next restarts.
   * @param {LaunchedServer} server
   * @returns {Promise<boolean>} false when it exited first
   */
  async switchTo(server) {
    if (!(await this.show(server.process, this.idOf(server)))) return false;
    const old = this.current;
    this.current = server;
    this.front.target = server.port;
    server.process.once('exit', (code, signal) => {
      if (this.current?.process !== server.process) return;
      this.current = undefined;
      this.front.target = undefined;
      if (!this.stopping) this.say(`the server exited (${signal ?? `code ${code}`}); it starts again after the next good build`);
    });
    if (!old && this.watching) this.say(`ready at ${this.front.url}`);
    // After the open pages have been told (the caller's next step) and have reloaded: the old
    // server's drain and the next warm process would take the cores that reload needs.
    setTimeout(async () => {
      if (old) await stop(old.process);
      if (!this.stopping) this.spares.fill(SPARES);
    }, SETTLE_AFTER_SWITCH_MS);
    return true;
  }

  /** Tells open pages what to show: the failure, or (after a good build) the build now running. */
  announce() {
    const { client, server, start } = this.failures;
    const pending = [client, server, start].filter(Boolean).join('\n\n');
    if (pending) this.feed.fail(pending);
    else if (this.current) this.feed.show(this.idOf(this.current));
  }

  /**
   * A build's outcome, recorded and printed.
   * @param {'client' | 'server'} kind
   * @param {BuildOutcome | undefined} result
   */
  record(kind, result) {
    if (!result) return;
    if (!result.ok) {
      this.failures[kind] = result.message;
      this.say(`${kind} build failed; the last good build keeps running:\n${result.colored}`);
      return;
    }
    if (this.failures[kind] !== undefined) this.say(`${kind} build fixed`);
    this.failures[kind] = undefined;
    if (result.manifest) this.manifest = result.manifest;
    if (result.packages) this.spares.packages = result.packages;
  }

  /**
   * What a batch of builds does: record them, start the new server where there is one, and tell
   * open pages.
   * @param {{ server?: Promise<BuildOutcome>, client?: Promise<BuildOutcome> }} batch
   */
  async onBatch({ server, client }) {
    const started = performance.now();
    const serverResult = await server;
    this.record('server', serverResult);
    this.serverBuilt ||= serverResult?.ok === true;
    const wanted = serverResult?.ok === true || (!this.current && this.serverBuilt);
    // With a client build from before on disk, the new server starts while this one finishes.
    const early = wanted && this.manifest ? this.launch() : undefined;
    const clientResult = client && (await client);
    this.record('client', clientResult);
    const launching = early ?? (wanted && this.manifest ? this.launch() : undefined);
    const launched = await launching;
    if (this.stopping) {
      if (launched) await stop(launched.process);
      return;
    }
    const replacing = this.current !== undefined;
    if (launching && !(launched && (await this.switchTo(launched)))) {
      this.failures.start = STARTUP_FAILED;
      this.say(STARTUP_FAILED);
    } else if (launching) {
      this.failures.start = undefined;
      if (replacing) this.say(`restarted ${(performance.now() - started).toFixed(0)} ms after the build began`);
    } else if (clientResult?.ok && this.current) await this.show(this.current.process, this.idOf(this.current));
    this.announce();
  }

  /** Stops the front and every server process, the running one and the warm ones. */
  async stop() {
    this.stopping = true;
    await this.front.close();
    await Promise.all([this.current, ...this.spares.list].map((server) => server && stop(server.process)));
  }
}

/**
 * Test helpers: start the real app on port 0 with captured logs — for a whole suite
 * ({@link useApp}) or one step ({@link withApp}) — and send it requests in-process
 * (`app.request`). Raw requests over TCP (test/helpers/raw.ts) and bounded waits
 * (test/helpers/wait.ts) are re-exported here, where most tests import them.
 *
 * Which way to send a request (docs/qa-kit.md §1), the first that serves:
 * - `app.request(path, options)` (inject.ts): in-process, no socket; the default for a server test.
 * - `raw(port, path, options)` (raw.ts): the same request and answer over TCP, where the connection
 *   is the subject (streaming, resets, the peer's address, HTTPS, nginx, a server in a process of
 *   its own). Both give the headers parsed and as lines in order (`headerLines`).
 * - `keptAlive(server | port)` (kept-alive.ts): many requests written as raw bytes on one kept-alive
 *   connection, for bytes Node's client would not write (two `Host` lines, odd methods).
 * - `openWire(port, first)` (wire.ts): one request written in parts at the test's own pace (slow
 *   clients, a body that ends after a signal), with the time its connection closed.
 * paths.ts's `get` is `raw` tagged to tell which of the two paths answered (docs/streaming.md §7).
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createApp, type AppOptions } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { Storage } from '../../src/storage/types.js';
import { FORMS } from '../fixtures/forms.js';
import { inject } from './inject.js';
import { logCollector, type LogLine } from './logs.js';
import type { RawOptions, RawResponse } from './raw.js';
import { useResource } from './suite.js';
import { tempStorage, withCount } from './temp-storage.js';
import { testAssets } from './test-dist.js';

export { freePort, freshAddress, raw, textOf, type RawResponse } from './raw.js';
export { waitFor, within } from './wait.js';

/** A running test app. */
export interface TestApp {
  url: string;
  port: number;
  /** The http server the app listens on. */
  server: Server;
  /** Sends one request in-process, without a socket (test/helpers/inject.ts); see {@link raw} for one over TCP. */
  request(path: string, options?: RawOptions): Promise<RawResponse>;
  /**
   * Every log line written so far, raw; or those from the `from`-th on (a test that sends many
   * requests reads only what each added).
   */
  rawLogs(from?: number): string[];
  /** The storage the app uses. */
  storage: Storage;
  /** Every log line written so far, parsed. */
  logs(): LogLine[];
  close(): Promise<void>;
}

/** Options of {@link startApp}: createApp's, with storage optional. */
export type TestAppOptions = Omit<AppOptions, 'storage'> & {
  storage?: Storage;
  /** Replaces the registration count (e.g. a slow or failing one). */
  countRegistrations?: () => Promise<number>;
};

/**
 * Starts `createApp` on 127.0.0.1 with debug logs captured and, unless given, a fresh temporary
 * database, the test app's forms (test/fixtures/forms.ts) and the tests' build (dist-test/).
 * @param options createApp options (test seams)
 * @param env extra environment for `loadConfig`; its `PORT` is the port to listen on (else port 0:
 *   one the system picks), e.g. one a `PUBLIC_ORIGIN` names
 */
export async function startApp(options: TestAppOptions = {}, env: NodeJS.ProcessEnv = {}): Promise<TestApp> {
  const { stream, lines } = logCollector();
  // Image variants go to a folder of this app's own, unless the test names one.
  const imageCache = env.IMAGE_CACHE_DIR ? undefined : await mkdtemp(join(tmpdir(), 'eiland-images-'));
  // Every hit of the render cache is compared with a fresh render in the tests (docs/streaming.md §6).
  const config: Config = loadConfig({ LOG_LEVEL: 'debug', CSRF_SECRET: 'test-secret-test-secret-test-secret-0123', IMAGE_CACHE_DIR: imageCache, RENDER_CACHE_VERIFY: '1', ...env });
  const temp = options.storage ? undefined : await tempStorage();
  const base = options.storage ?? temp!.storage;
  const storage = options.countRegistrations ? withCount(base, options.countRegistrations) : base;
  const production = createApp(config, { logStream: stream, forms: FORMS, ...options, assets: options.assets ?? testAssets(), storage });
  const server = createServer(production.listener).listen(env.PORT === undefined ? 0 : config.port, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    server,
    request: (path, options) => inject(server, path, options),
    rawLogs: (from = 0) => lines.slice(from),
    logs: () => lines.map((l) => JSON.parse(l) as LogLine),
    storage,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
      if (temp) {
        await temp.storage.close();
        await temp.remove();
      }
      if (imageCache) await rm(imageCache, { recursive: true, force: true });
    },
  };
}

/** Something given as is, or by a function run when it is needed (in a `before` hook). */
type Given<T> = T | (() => T | Promise<T>);

async function resolveGiven<T>(given: Given<T>): Promise<T> {
  return typeof given === 'function' ? (given as () => T | Promise<T>)() : given;
}

/** The app of a suite ({@link useApp}): a {@link TestApp} without `close`, which the suite's `after` hook does. */
export type SuiteTestApp = Omit<TestApp, 'close'>;

/**
 * Registers `before`/`after` hooks in the current suite (or, called at the top of a file, for
 * the whole file) that start the app with {@link startApp} and close it afterwards.
 * Something the options need (fixtures, a folder) is made in the options function, or in a
 * `before` registered earlier, and removed in an `after` registered later, so it outlives the
 * app (hooks run in the order they are registered).
 * @param options createApp options, or a function giving them (run in `before`)
 * @param env extra environment for `loadConfig`, or a function giving it (run in `before`, after `options`)
 * @returns the app, valid inside the suite's tests: its members read the app the hook started
 * @throws Error when a member is read outside the suite's tests (before its `before` hook ran
 *   or after its `after` hook closed the app), naming the member
 */
export function useApp(options: Given<TestAppOptions> = {}, env: Given<NodeJS.ProcessEnv> = {}): SuiteTestApp {
  return useResource(
    'useApp()',
    async () => {
      const resolved = await resolveGiven(options);
      return startApp(resolved, await resolveGiven(env));
    },
    (app) => app.close(),
  );
}

/**
 * Starts the app with {@link startApp}, runs a step with it and closes it, also when the step fails.
 * @param options createApp options (test seams)
 * @param env extra environment for `loadConfig` (may be left out)
 * @param step gets the running app
 * @returns what the step returns
 * @throws what the step throws (after the app is closed), or startApp's error
 */
export function withApp<T>(options: TestAppOptions, step: (app: TestApp) => Promise<T>): Promise<T>;
export function withApp<T>(options: TestAppOptions, env: NodeJS.ProcessEnv, step: (app: TestApp) => Promise<T>): Promise<T>;
export async function withApp<T>(options: TestAppOptions, ...rest: [(app: TestApp) => Promise<T>] | [NodeJS.ProcessEnv, (app: TestApp) => Promise<T>]): Promise<T> {
  const [env, step] = rest.length === 1 ? [{}, rest[0]] : rest;
  const app = await startApp(options, env);
  try {
    return await step(app);
  } finally {
    await app.close();
  }
}

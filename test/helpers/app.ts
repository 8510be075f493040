/**
 * Test helpers: start the real app on port 0 with captured logs — for a whole suite
 * ({@link useApp}) or one step ({@link withApp}) — send raw HTTP requests (fetch would normalise
 * the very paths these tests need), in-process (`app.request`) or over TCP ({@link raw}), and
 * wait for things with a bound ({@link within}).
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { Express } from 'express';
import { createApp, type AppOptions } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { openSqlite } from '../../src/storage/sqlite/index.js';
import type { Storage } from '../../src/storage/types.js';
import { inject, send } from './inject.js';
import { useResource } from './suite.js';

/** One parsed pino line. */
export type LogLine = Record<string, unknown> & { msg?: string; reqId?: string; level: number };

/** A running test app. */
export interface TestApp {
  url: string;
  port: number;
  /** Sends one request in-process, without a socket (test/helpers/inject.ts); see {@link raw} for one over TCP. */
  request(path: string, options?: RawOptions): Promise<RawResponse>;
  /** Every log line written so far, raw. */
  rawLogs(): string[];
  /** The storage the app uses. */
  storage: Storage;
  /** Every log line written so far, parsed. */
  logs(): LogLine[];
  close(): Promise<void>;
}

/** Collects pino's output lines. */
export function logCollector(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter((l) => l !== ''));
      done();
    },
  });
  return { stream, lines };
}

/** A temporary SQLite database for one test app. */
export async function tempStorage(): Promise<{ storage: Storage; file: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'eiland-db-'));
  const file = join(dir, 'eiland.db');
  const storage = await openSqlite(file);
  return { storage, file, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Storage whose count comes from `count` (the slow-loader seam of the streaming tests). */
export function withCount(storage: Storage, count: () => Promise<number>): Storage {
  return { ...storage, countRegistrations: count };
}

/** Options of {@link startApp}: createApp's, with storage optional. */
export type TestAppOptions = Omit<AppOptions, 'storage'> & {
  storage?: Storage;
  /** Wraps the app, as the development server does (see `ServerOptions.wrap`). */
  wrap?: (app: Express) => Express;
  /** Replaces the registration count (e.g. a slow or failing one). */
  countRegistrations?: () => Promise<number>;
};

/**
 * Starts `createApp` on 127.0.0.1 with debug logs captured and, unless
 * given, a fresh temporary database.
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
  const production = createApp(config, { logStream: stream, ...options, storage });
  const server = (options.wrap ? options.wrap(production) : production).listen(env.PORT === undefined ? 0 : config.port, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    request: (path, options) => inject(server, path, options),
    rawLogs: () => [...lines],
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
export type Given<T> = T | (() => T | Promise<T>);

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

/**
 * Waits for a promise, but not forever: a stream's end, a socket's close, a process's exit.
 * @param promise what to wait for
 * @param ms the bound
 * @param what what is awaited, for the message, e.g. `the reload stream to close`
 * @returns what the promise resolves to
 * @throws Error `<what>: not within <ms> ms` when the bound passes first; the promise's own rejection
 */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, bound]);
  } finally {
    clearTimeout(timer);
  }
}

/** A raw response. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Options of {@link raw}. */
export interface RawOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Local loopback address to send from, e.g. `127.0.0.7` (rate limits are per address). */
  from?: string;
}

let lastAddress = 1;
/** A loopback address no other request of this test process has used yet. */
export function freshAddress(): string {
  lastAddress += 1;
  return `127.0.${Math.floor(lastAddress / 250)}.${(lastAddress % 250) + 2}`;
}

/**
 * Sends one request with the path exactly as given (no normalisation).
 * @param port the app's port on 127.0.0.1
 * @param path request target, e.g. `/assets/%2e%2e/over` or `http://evil.example/`
 */
export function raw(port: number, path: string, { method = 'GET', headers = {}, body, from }: RawOptions = {}): Promise<RawResponse> {
  return send({ host: '127.0.0.1', port, path, method, headers, agent: false, localAddress: from }, body);
}

/** The text of the first element matching a simple tag, e.g. `h1` → its inner text without tags. */
export function textOf(html: string, tag: string): string | undefined {
  const m = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`).exec(html);
  return m?.[1]?.replace(/<[^>]+>/g, '');
}

/** Polls until `check` is true or `ms` pass. */
export async function waitFor(check: () => boolean, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A free TCP port on 127.0.0.1, for a program the test starts (nginx, PostgreSQL): the scripts' own. */
export { freePort } from '../../scripts/started-port.mjs';

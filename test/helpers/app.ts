/**
 * Test helpers: start the real app on port 0 with captured logs, and send raw
 * HTTP requests (fetch would normalise the very paths these tests need).
 */
import { once } from 'node:events';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createApp, type AppOptions } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';

/** One parsed pino line. */
export type LogLine = Record<string, unknown> & { msg?: string; reqId?: string; level: number };

/** A running test app. */
export interface TestApp {
  url: string;
  port: number;
  /** Every log line written so far, raw. */
  rawLogs(): string[];
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

/**
 * Starts `createApp` on 127.0.0.1:0 with debug logs captured.
 * @param options createApp options (test seams)
 * @param env extra environment for `loadConfig`
 */
export async function startApp(options: AppOptions = {}, env: NodeJS.ProcessEnv = {}): Promise<TestApp> {
  const { stream, lines } = logCollector();
  const config: Config = loadConfig({ LOG_LEVEL: 'debug', ...env });
  const app = createApp(config, { logStream: stream, ...options });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    rawLogs: () => [...lines],
    logs: () => lines.map((l) => JSON.parse(l) as LogLine),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
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
}

/**
 * Sends one request with the path exactly as given (no normalisation).
 * @param port the app's port on 127.0.0.1
 * @param path request target, e.g. `/assets/%2e%2e/over` or `http://evil.example/`
 */
export function raw(port: number, path: string, { method = 'GET', headers = {}, body }: RawOptions = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
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

/**
 * The HTTP server around the app (product.md §12): timeouts, readiness, and
 * graceful shutdown. `main.ts` wires it to the process.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createApp, type AppOptions } from './app.js';
import type { Config } from './config.js';
import { Lifecycle } from './lifecycle.js';
import { createLogger } from './logging.js';

/** In-flight requests get this long to finish after a shutdown signal (§12). */
const DRAIN_MS = 10_000;

/** A running server. */
export interface RunningServer {
  server: Server;
  /** Base URL, e.g. `http://127.0.0.1:3000`. */
  url: string;
  logger: Logger;
  /**
   * Graceful shutdown: readiness 503, stop accepting, let in-flight requests
   * finish (at most 10 s, then their connections are cut). Resolves when closed.
   * @param signal what triggered it, for the log (e.g. `SIGTERM`)
   */
  shutdown(signal: string): Promise<void>;
}

/**
 * Creates the app and listens on `config.host`:`config.port`.
 * @param config validated configuration
 * @param options passed on to `createApp` (tests inject slow loaders here)
 * @throws Error when the port cannot be bound or the build manifest is missing
 */
export async function startServer(config: Config, options: AppOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel, options.logStream);
  const lifecycle = new Lifecycle('starting');
  const app = createApp(config, { ...options, logger, lifecycle });
  const server = createServer(
    {
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 5_000,
      connectionsCheckingInterval: 2_000,
    },
    app,
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  lifecycle.state = 'ready';
  logger.info({ event: 'server_started', host: config.host, port }, 'server_started');

  let closing: Promise<void> | undefined;
  const shutdown = (signal: string) =>
    (closing ??= new Promise<void>((resolve) => {
      lifecycle.state = 'stopping';
      logger.info({ event: 'shutdown_started', signal }, 'shutdown_started');
      // Keep-alive clients are told to go; idle sockets are closed by close().
      server.on('request', (_req, res) => res.setHeader('Connection', 'close'));
      const force = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
      server.close(() => {
        clearTimeout(force);
        logger.info({ event: 'shutdown_complete' }, 'shutdown_complete');
        resolve();
      });
      server.closeIdleConnections();
    }));

  return { server, url: `http://${host}:${port}`, logger, shutdown };
}

/**
 * Shuts the server down gracefully on SIGTERM or SIGINT, then exits with 0.
 * @param running the server to stop
 */
export function exitOnSignals(running: RunningServer): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      void running.shutdown(signal).then(() => process.exit(0));
    });
  }
}

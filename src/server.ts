/**
 * The HTTP server around the site (docs/operations.md §4–§5): time-outs, every header line kept,
 * readiness, and graceful shutdown, which drains the requests under way while the site stops its
 * jobs (src/site.ts composes everything it serves). `process.ts` wires it to the process.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { logParserErrors } from './parser-errors.js';
import { openSite, urlHost, type SiteOptions } from './site.js';

/** In-flight requests get this long to finish after a shutdown signal (docs/operations.md §5). */
const DRAIN_MS = 10_000;

/** A running server. */
export interface RunningServer {
  server: Server;
  /** Base URL, e.g. `http://127.0.0.1:3000`. */
  url: string;
  /** The metrics listener's `/metrics` URL, when `METRICS_PORT` is set. */
  metricsUrl: string | undefined;
  logger: Logger;
  /**
   * Graceful shutdown: readiness 503, stop accepting, let in-flight requests
   * finish (at most 10 s, then their connections are cut) while the site's jobs stop,
   * close the database. Resolves when all is closed.
   * @param signal what triggered it, for the log (e.g. `SIGTERM`)
   */
  shutdown(signal: string): Promise<void>;
}

/** Options of {@link startServer}: those of the site (src/site.ts), storage optional. */
export type ServerOptions = SiteOptions;

/**
 * Composes the site (src/site.ts) and serves it on `config.host`:`config.port`.
 * @param config validated configuration
 * @param options the site's (tests inject routes and storage here)
 * @throws Error when the port cannot be bound, the database cannot be opened,
 *   or the build manifest is missing
 */
export async function startServer(config: Config, options: ServerOptions = {}): Promise<RunningServer> {
  const site = await openSite(config, options);
  const { logger, lifecycle } = site;
  const server = createServer(
    {
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 5_000,
      connectionsCheckingInterval: 2_000,
    },
    site.listener,
  );
  // Every header line reaches the app, however many: Node's default keeps about the first
  // thousand and drops the rest unseen, so a second Host after them would pass the check of
  // docs/filter.md §9. The head stays bounded by its size (16 KiB: 431).
  server.maxHeadersCount = 0;
  logParserErrors(server, logger);
  // Connections that have not sent a request yet (browsers open spare ones): closeIdleConnections()
  // leaves them to the 10 s headers time-out, which would hold a shutdown that long.
  const unused = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  // Responses under way, so a shutdown can end their keep-alive connections once they finish.
  const inFlight = new Set<ServerResponse>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    unused.delete(req.socket);
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${urlHost(config.host)}:${port}`;
  site.listening(port);
  lifecycle.state = 'ready';
  // How many mailboxes are told of new submissions, or `off` (docs/beheer.md §5): never the addresses.
  logger.info({ event: 'server_started', host: config.host, port, ...site.mail, notifications: config.mail.notifyTo?.length ?? 'off' }, 'server_started');

  /** Stops accepting and lets the requests under way end (at most 10 s); resolves once the server has closed. */
  const drain = () =>
    new Promise<void>((resolve) => {
      // Keep-alive clients are told to go; idle sockets are closed by close(). Before the app's
      // own listener: a request it answers at once (a 308, a probe) has sent its headers by the
      // time a later listener runs, and setHeader would throw there.
      server.prependListener('request', (_req, res) => res.setHeader('Connection', 'close'));
      // Those already under way: told the same if their head is not out yet, else their
      // connection is closed as soon as they finish (close() only closes what is idle now).
      for (const res of inFlight) {
        if (!res.headersSent) res.setHeader('Connection', 'close');
        else res.once('finish', () => setImmediate(() => server.closeIdleConnections()));
      }
      const force = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
      server.close(() => {
        clearTimeout(force);
        resolve();
      });
      server.closeIdleConnections();
      for (const socket of unused) socket.destroy();
    });

  let closing: Promise<void> | undefined;
  const shutdown = (signal: string) =>
    (closing ??= (async () => {
      lifecycle.state = 'stopping';
      logger.info({ event: 'shutdown_started', signal }, 'shutdown_started');
      // The site stops its jobs as the drain begins, and closes the database after both.
      await site.stop(drain);
      logger.info({ event: 'shutdown_complete' }, 'shutdown_complete');
    })());

  return { server, url, metricsUrl: site.metricsUrl, logger, shutdown };
}

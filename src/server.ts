/**
 * The HTTP server around the app (docs/operations.md §4–§5): timeouts, readiness, and
 * graceful shutdown. `main.ts` wires it to the process.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from 'pino';
import { createApp, type AppOptions } from './app.js';
import type { Config } from './config.js';
import { Lifecycle } from './lifecycle.js';
import { createLogger } from './logging.js';
import { logParserErrors } from './parser-errors.js';
import { createMetrics, type Metrics } from './metrics/index.js';
import { METRICS_PATH, startMetricsListener } from './metrics/listener.js';
import { startMailer, type Mailer } from './mail/sender.js';
import { createMailTransport, type MailTransport } from './mail/transport.js';
import { DEFAULT_DATABASE_FILE, openStorage } from './storage/index.js';
import type { Storage } from './storage/types.js';
import { FORMS, formMigrations, letters, retained } from './forms/index.js';
import { startRetention } from './retention.js';

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
   * finish (at most 10 s, then their connections are cut), close the database.
   * Resolves when all is closed.
   * @param signal what triggered it, for the log (e.g. `SIGTERM`)
   */
  shutdown(signal: string): Promise<void>;
}

/** Options of {@link startServer}: those of `createApp`, storage optional. */
export type ServerOptions = Omit<AppOptions, 'storage'> & {
  /** Storage to use; by default the configured engine is opened (and closed at shutdown). */
  storage?: Storage;
  /** SQLite file when storage is opened here (default `data/eiland.db`). */
  databaseFile?: string;
  /** The folder of the e-mails' `.eml` files without `SMTP_URL` (default `mail/` beside the SQLite file: `data/mail`). */
  mailDir?: string;
};

/** What {@link withMail} tells of the outbox's messages. */
interface MailSide {
  /** Wakes the sender: a message is in the outbox. */
  wake(): void;
  transport: MailTransport;
  logger: Logger;
  metrics: Metrics;
}

/**
 * The storage, with the sender woken after each new submission of a form that mails (its e-mail
 * is then in the outbox), one over its recipient's limit logged and counted as suppressed, and an
 * erasure that takes the transport's copies of its e-mails along (docs/pages.md §7,
 * docs/operations.md §12).
 */
function withMail(storage: Storage, { wake, transport, logger, metrics }: MailSide): Storage {
  return {
    ...storage,
    async save(kept, submissionKey, row) {
      const saved = await storage.save(kept, submissionKey, row);
      if (saved.suppressed) {
        // Neither the address nor anything else of the person: the kind tells what was asked for.
        logger.warn({ event: 'mail_suppressed', kind: kept.kind }, 'mail_suppressed');
        metrics.mail.inc({ outcome: 'suppressed' });
      } else if (saved.created && kept.mailed) wake();
      return saved;
    },
    async erase(table, id) {
      const erased = await storage.erase(table, id);
      if (erased) await transport.forget(id);
      return erased;
    },
  };
}

/**
 * The origin of the e-mails' links without `PUBLIC_ORIGIN`: this server's, as a browser on this
 * machine reaches it (an address of every interface is not one to browse to).
 */
function linkOrigin(host: string, port: number): string {
  return `http://${['0.0.0.0', '::'].includes(host) ? 'localhost' : urlHost(host)}:${port}`;
}

/** A host as written in a URL: an IPv6 address in brackets. */
const urlHost = (host: string) => (host.includes(':') ? `[${host}]` : host);

/**
 * The CSRF secret: `CSRF_SECRET`, else one generated once and kept in the
 * database, so every instance on it agrees (docs/operations.md §1).
 */
async function csrfSecretOf(config: Config, storage: Storage): Promise<string> {
  return config.csrfSecret ?? storage.setting('csrf_secret', () => randomBytes(32).toString('base64url'));
}

/**
 * Opens storage, creates the app and listens on `config.host`:`config.port`.
 * @param config validated configuration
 * @param options passed on to `createApp` (tests inject routes and storage here)
 * @throws Error when the port cannot be bound, the database cannot be opened,
 *   or the build manifest is missing
 */
export async function startServer(config: Config, options: ServerOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel, options.logStream);
  const lifecycle = new Lifecycle('starting');
  const forms = options.forms ?? FORMS;
  const opened = options.storage ?? (await openStorage(config, { file: options.databaseFile, logger, forms: formMigrations(forms) }));
  const transport = createMailTransport(config.mail.smtpUrl, options.mailDir ?? join(dirname(options.databaseFile ?? DEFAULT_DATABASE_FILE), 'mail'));
  // A stored registration or contact message wakes the outbox's sender (docs/operations.md §12).
  let mailer: Mailer | undefined;
  const metrics = options.metrics ?? createMetrics();
  const storage = withMail(opened, { wake: () => mailer?.wake(), transport, logger, metrics });
  const csrfSecret = await csrfSecretOf(config, storage);
  const production = createApp({ ...config, csrfSecret }, { ...options, storage, logger, lifecycle, metrics });
  const app = production.listener;
  const server = createServer(
    {
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 5_000,
      connectionsCheckingInterval: 2_000,
    },
    app,
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
  // Off unless configured; never on the public port (docs/operations.md §7). Bound first: a port
  // that cannot be had stops the start before the site takes traffic.
  const metricsListener = config.metrics && (await startMetricsListener(metrics, config.metrics.host, config.metrics.port));
  // Personal data past its time goes at start-up and every hour (docs/operations.md §11).
  const retention = startRetention({ storage, mailCopies: transport, tables: retained(config.retentionDays, forms), logger, metrics });
  if (metricsListener) logger.info({ event: 'metrics_started', host: config.metrics!.host, port: metricsListener.port }, 'metrics_started');
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${urlHost(config.host)}:${port}`;
  mailer = startMailer({ storage, transport, letter: letters(storage, config.publicOrigins?.[0] ?? linkOrigin(config.host, port), forms), from: config.mail.from, retryMs: config.mail.retryMs, maxAttempts: config.mail.maxAttempts, logger, metrics });
  lifecycle.state = 'ready';
  logger.info({ event: 'server_started', host: config.host, port, ...transport.target }, 'server_started');

  let closing: Promise<void> | undefined;
  const shutdown = (signal: string) =>
    (closing ??= new Promise<void>((resolve) => {
      lifecycle.state = 'stopping';
      logger.info({ event: 'shutdown_started', signal }, 'shutdown_started');
      retention.stop();
      const mailStopped = mailer!.stop();
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
        void Promise.all([
          // The start-up's run and the send under way finish before the database closes under them.
          Promise.all([retention.firstRun, mailStopped])
            .then(() => storage.close())
            .catch((err: unknown) => logger.error({ err }, 'closing the database failed')),
          metricsListener?.close(),
        ]).finally(() => {
          logger.info({ event: 'shutdown_complete' }, 'shutdown_complete');
          resolve();
        });
      });
      server.closeIdleConnections();
      for (const socket of unused) socket.destroy();
    }));

  const metricsUrl = metricsListener && `http://${urlHost(config.metrics!.host)}:${metricsListener.port}${METRICS_PATH}`;
  return { server, url, metricsUrl, logger, shutdown };
}

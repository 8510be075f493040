/**
 * The site: the one place where an instance is composed. It opens the storage (wrapped for the
 * outbox), makes the CSRF secret, the mail transport, the metrics and their listener, builds the
 * app on them (src/app.ts, which composes the request pipeline), and starts the background jobs
 * (src/jobs.ts): the retention job and the outbox's sender. It stops them in a declared order, and
 * closes the storage after them. It does not listen: src/server.ts serves it over HTTP.
 */
import { randomBytes } from 'node:crypto';
import type { RequestListener } from 'node:http';
import { dirname, join } from 'node:path';
import type { Logger } from 'pino';
import { createApp, type AppOptions } from './app.js';
import type { Config } from './config.js';
import { FORMS, formMigrations, retained } from './forms/index.js';
import { stopJobs } from './jobs.js';
import { Lifecycle } from './lifecycle.js';
import { createLogger } from './logging.js';
import type { Mailer } from './mail/sender.js';
import { withMail } from './mail/storage.js';
import { startMailThread } from './mail/thread.js';
import { createMailTransport, type MailTarget } from './mail/transport.js';
import { createMetrics } from './metrics/index.js';
import { METRICS_PATH, startMetricsListener } from './metrics/listener.js';
import { startRetention } from './retention.js';
import { DEFAULT_DATABASE_FILE, openStorage } from './storage/index.js';
import type { Storage } from './storage/types.js';

/** Options of {@link openSite}: those of `createApp`, storage optional. */
export type SiteOptions = Omit<AppOptions, 'storage'> & {
  /** Storage to use; by default the configured engine is opened. Closed when the site stops, either way. */
  storage?: Storage;
  /** SQLite file when storage is opened here (default `data/eiland.db`). */
  databaseFile?: string;
  /** A module whose `FORMS` are `forms`, for the outbox's sender on its own thread (src/mail/thread.ts); default the site's. */
  formsModule?: string;
  /** The folder of the e-mails' `.eml` files without `SMTP_URL` (default `mail/` beside the SQLite file: `data/mail`). */
  mailDir?: string;
};

/** A composed instance, its retention job running, not yet served. */
export interface Site {
  /** What the http server hands each request to: the app's listener (the fast path beside Express). */
  listener: RequestListener;
  logger: Logger;
  /** Read by `/readyz`; the server moves it on (docs/operations.md §4–§5). */
  lifecycle: Lifecycle;
  /** Where e-mail goes, as the start-up line says (docs/operations.md §12). */
  mail: MailTarget;
  /** The metrics listener's `/metrics` URL, when `METRICS_PORT` is set. */
  metricsUrl: string | undefined;
  /**
   * Starts the outbox's sender, whose links name this server without `PUBLIC_ORIGIN`.
   * @param port the port the http server listens on
   */
  listening(port: number): void;
  /**
   * Stops the instance: its jobs at once, in their declared order, while `drain` lets the
   * requests under way end; then the storage closes, once the jobs have ended, and the metrics
   * listener beside it (it serves during the drain). Never rejects: a failed close is logged.
   * @param drain ends the http server's requests (src/server.ts)
   */
  stop(drain: () => Promise<void>): Promise<void>;
}

/** A host as written in a URL: an IPv6 address in brackets. */
export const urlHost = (host: string): string => (host.includes(':') ? `[${host}]` : host);

/**
 * The origin of the e-mails' links (and the staff command's, docs/beheer.md §1): `PUBLIC_ORIGIN`'s
 * first, else this server's, as a browser on this machine reaches it (an address of every
 * interface is not one to browse to).
 * @param port the port the server listens on
 */
export function linkOrigin(config: Pick<Config, 'publicOrigins' | 'host'>, port: number): string {
  return config.publicOrigins?.[0] ?? `http://${['0.0.0.0', '::'].includes(config.host) ? 'localhost' : urlHost(config.host)}:${port}`;
}

/**
 * The CSRF secret: `CSRF_SECRET`, else one generated once and kept in the
 * database, so every instance on it agrees (docs/operations.md §1).
 */
export async function csrfSecretOf(config: Pick<Config, 'csrfSecret'>, storage: Storage): Promise<string> {
  return config.csrfSecret ?? storage.setting('csrf_secret', () => randomBytes(32).toString('base64url'));
}

/**
 * Composes an instance: storage, the CSRF secret, mail, metrics and their listener (bound here,
 * so a port that cannot be had stops the start before the site takes traffic: docs/operations.md
 * §7), the app, and the retention job.
 * @param config validated configuration
 * @param options passed on to `createApp` (tests inject routes and storage here)
 * @throws Error when the database cannot be opened, the metrics port cannot be bound, or the
 *   build manifest is missing
 * @example
 * const site = await openSite(config, {});
 * const server = createServer(site.listener); // listen, then site.listening(port)
 */
export async function openSite(config: Config, options: SiteOptions = {}): Promise<Site> {
  const logger = options.logger ?? createLogger(config.logLevel, options.logStream);
  const lifecycle = options.lifecycle ?? new Lifecycle('starting');
  const forms = options.forms ?? FORMS;
  const opened = options.storage ?? (await openStorage(config, { file: options.databaseFile, logger, forms: formMigrations(forms), notify: config.mail.notifyTo !== undefined }));
  const mailDir = options.mailDir ?? join(dirname(options.databaseFile ?? DEFAULT_DATABASE_FILE), 'mail');
  const transport = createMailTransport(config.mail.smtpUrl, mailDir);
  // A stored registration or contact message wakes the outbox's sender (docs/operations.md §12).
  let mailer: Mailer | undefined;
  const metrics = options.metrics ?? createMetrics();
  const storage = withMail(opened, { wake: () => mailer?.wake(), transport, logger, metrics });
  const csrfSecret = await csrfSecretOf(config, storage);
  const production = createApp({ ...config, csrfSecret }, { ...options, storage, logger, lifecycle, metrics });
  // Off unless configured; never on the public port (docs/operations.md §7).
  const metricsListener = config.metrics && (await startMetricsListener(metrics, config.metrics.host, config.metrics.port));
  // Personal data past its time goes at start-up and every hour (docs/operations.md §11).
  const retention = startRetention({ storage, mailCopies: transport, tables: retained(config.retentionDays, forms), logger, metrics });
  if (metricsListener) logger.info({ event: 'metrics_started', host: config.metrics!.host, port: metricsListener.port }, 'metrics_started');

  return {
    listener: production.listener,
    logger,
    lifecycle,
    mail: transport.target,
    metricsUrl: metricsListener && `http://${urlHost(config.metrics!.host)}:${metricsListener.port}${METRICS_PATH}`,
    listening(port) {
      const { smtpUrl, from, retryMs, maxAttempts, notifyTo } = config.mail;
      const data = { source: storage.source, formsModule: options.formsModule, smtpUrl, mailDir, origin: linkOrigin(config, port), from, retryMs, maxAttempts, notifyTo, secret: csrfSecret, level: config.logLevel };
      mailer = startMailThread(data, { logger, metrics });
    },
    async stop(drain) {
      // The stop order: nothing more is deleted or sent from the first moment of a shutdown; the
      // retention's run under way and the sends under way then end before the database closes
      // under them (docs/operations.md §11, §12).
      const jobsStopped = stopJobs([retention, mailer].filter((job) => job !== undefined), logger);
      await drain();
      await Promise.all([
        jobsStopped.then(() => storage.close()).catch((err: unknown) => logger.error({ err }, 'closing the database failed')),
        metricsListener && stopJobs([metricsListener], logger),
      ]);
    },
  };
}

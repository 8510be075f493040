/**
 * The retention job (docs/operations.md §11): each table of kept submissions is kept its form's
 * days (`RETENTION_DAYS` unless the form says otherwise), and the outbox's sent messages a day
 * (docs/operations.md §12). At start-up and every hour, what is older is deleted, by one instance
 * at a time, and this instance's copies of e-mails written before the shortest cut-off, with a log
 * line and a metric of how many.
 */
import type { Logger } from 'pino';
import { ABSOLUTE_MS, IDLE_MS } from './beheer/session.js';
import type { Job } from './jobs.js';
import type { MailTransport } from './mail/transport.js';
import type { Metrics } from './metrics/index.js';
import type { Storage } from './storage/types.js';

/** How often the job runs after the start-up's run. */
const EVERY_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** How long a sent message stays in the outbox, for an operator to see it went. */
export const SENT_MAIL_KEPT_MS = DAY_MS;

/** Options of {@link startRetention}. */
interface RetentionOptions {
  storage: Storage;
  /** The copies of sent e-mails this instance keeps (the `.eml` files), deleted with their rows. */
  mailCopies: Pick<MailTransport, 'expire'>;
  /** The tables to expire and the days each keeps its rows (src/forms/index.ts, `retained`). */
  tables: ReadonlyArray<{ table: string; days: number }>;
  logger: Logger;
  metrics: Metrics;
  /** The time now, in ms since the epoch (a seam for tests; default `Date.now`). */
  now?: () => number;
}

/** The running retention job. */
export interface RetentionJob extends Job {
  /** The start-up's run: resolves when it is done, never rejects. */
  firstRun: Promise<void>;
  /** Runs no more; resolves once the run under way (the start-up's, or an hour's) is done. */
  stop(): Promise<void>;
}

/** Days the audit log of beheer is kept (docs/beheer.md §7). */
export const AUDIT_KEPT_DAYS = 365;

/**
 * Starts the retention job: one run now, then one an hour (a timer that does not keep the process
 * alive). A run that fails (the database gone) is logged at `warn` and the next hour tries again.
 * A stopping instance lets the run under way finish before it closes the database (docs/operations.md §11).
 */
export function startRetention({ storage, mailCopies, tables, logger, metrics, now = Date.now }: RetentionOptions): RetentionJob {
  const run = async () => {
    try {
      const cutoffs = tables.map(({ table, days }) => ({ table, before: new Date(now() - days * DAY_MS) }));
      const deleted = await storage.deleteExpired(cutoffs, new Date(now() - SENT_MAIL_KEPT_MS));
      // Each instance's own copies, whichever instance deleted the rows: a copy is never older than
      // its row, and one older than the shortest time a form keeps its rows goes.
      const newest = Math.max(...cutoffs.map(({ before }) => before.getTime()));
      const mailFiles = cutoffs.length === 0 ? 0 : await mailCopies.expire(new Date(newest));
      metrics.retentionDeleted.inc({ kind: 'mail_files' }, mailFiles);
      if (deleted === undefined) {
        logger.debug({ event: 'retention_skipped', mailFiles }, 'retention_skipped');
        return;
      }
      // Beheer's audit log is kept a year; ended sessions and used or expired links go (docs/beheer.md §7).
      const beheer = await storage.staff.sweep(now(), now() - AUDIT_KEPT_DAYS * DAY_MS, IDLE_MS, ABSOLUTE_MS);
      // The tables' names are the metric's kinds and the log line's fields.
      const counts = { ...deleted.rows, mail: deleted.mail, beheer };
      for (const [kind, count] of Object.entries(counts)) metrics.retentionDeleted.inc({ kind }, count);
      // At info when it deleted something; a run that found nothing is a debug line every hour.
      const level = Object.values(counts).some((count) => count > 0) || mailFiles > 0 ? 'info' : 'debug';
      logger[level]({ event: 'retention_run', retentionDays: Object.fromEntries(tables.map(({ table, days }) => [table, days])), ...counts, mailFiles }, 'retention_run');
    } catch (err) {
      logger.warn({ event: 'retention_failed', err }, 'retention_failed');
    }
  };
  const firstRun = run();
  let underWay = firstRun;
  const timer = setInterval(() => void (underWay = run()), EVERY_MS);
  timer.unref();
  return {
    name: 'retention',
    firstRun,
    async stop() {
      clearInterval(timer);
      await underWay;
    },
  };
}

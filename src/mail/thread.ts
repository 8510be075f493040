/**
 * The outbox's sender on a thread of its own (docs/operations.md §12): composing, writing or
 * sending and settling the e-mails run in a `worker_threads` worker with its own database
 * connection (src/mail/worker.ts), so a burst of posts is not slowed by its e-mails. The worker's
 * log lines are written to this thread's log destination, and its outcomes counted in this
 * thread's metrics. A worker that fails is started again after a second, then after twice as long
 * each time it fails again, up to a minute.
 */
import { once } from 'node:events';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { LogLevel } from '../config.js';
import { logDestination } from '../logging.js';
import type { Metrics } from '../metrics/index.js';
import type { StorageSource } from '../storage/types.js';
import type { MailCounted, Mailer } from './sender.js';

/** What the worker is started with: plain data, since nothing else crosses threads. */
export interface MailWorkerData {
  source: StorageSource;
  /** A module whose `FORMS` are the site's forms (the tests' own); the site's when undefined. */
  formsModule: string | undefined;
  /** `SMTP_URL`, or undefined for the `.eml` files of `mailDir`. */
  smtpUrl: string | undefined;
  mailDir: string;
  /** The origin of the e-mails' links (`linkOrigin` of src/site.ts). */
  origin: string;
  from: string;
  retryMs: number;
  maxAttempts: number;
  notifyTo: readonly string[] | undefined;
  /** The site's secret, for the sealed password links (docs/beheer.md §1). */
  secret: string;
  /** The log level of this thread's logger. */
  level: LogLevel;
}

/** What the worker tells this thread. */
export type MailWorkerMessage = { log: string } | { mail: MailCounted };

/** How long a stop waits for the worker to end (its sends get 5 s, then their leases go back). */
const STOP_MS = 10_000;
/** The delay before a failed worker is started again, doubled after each failure to a minute at most. */
const RESTART_MS = 1_000;
const MAX_RESTART_MS = 60_000;

/**
 * The worker beside this module: `mail-worker.js` (or `.mjs`) beside a server bundle
 * (build/server.mjs), or `worker.ts` under tsx, which a worker must register for itself (Node 20
 * does not carry `--import tsx` into a worker), so it starts with that and nothing else.
 */
function newWorker(workerData: MailWorkerData): Worker {
  const extension = extname(fileURLToPath(import.meta.url));
  if (extension !== '.ts') return new Worker(new URL(`./mail-worker${extension}`, import.meta.url), { workerData });
  const load = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./worker.ts', import.meta.url).href)}); })`;
  return new Worker(load, { eval: true, execArgv: [], workerData });
}

/**
 * Starts the sender's worker.
 * @param data what it opens and sends with
 * @param side this thread's logger (the worker's lines go to its destination) and metrics
 * @returns the sender as a job: `wake()` after a message was written, `stop()` to end it
 */
export function startMailThread(data: MailWorkerData, { logger, metrics }: { logger: Logger; metrics: Metrics }): Mailer {
  const destination = logDestination(logger);
  let stopping = false;
  let restart: NodeJS.Timeout | undefined;
  let restartMs = RESTART_MS;
  let worker: Worker;
  let running = false;

  const start = () => {
    worker = newWorker(data);
    running = true;
    const started = Date.now();
    worker.on('message', (message: MailWorkerMessage) => {
      if ('log' in message) destination.write(message.log);
      else metrics.mail.inc({ outcome: message.mail });
    });
    let failure: Error | undefined;
    worker.on('error', (err) => (failure = err));
    worker.on('exit', (code) => {
      running = false;
      if (stopping) return;
      // A worker that ran a while failed anew: its restart is quick again.
      if (Date.now() - started > MAX_RESTART_MS) restartMs = RESTART_MS;
      logger.error({ event: 'mail_worker_failed', err: failure, exitCode: code, restartInMs: restartMs }, 'mail_worker_failed');
      restart = setTimeout(start, restartMs);
      restart.unref();
      restartMs = Math.min(restartMs * 2, MAX_RESTART_MS);
    });
  };

  start();
  return {
    name: 'mailer',
    wake: () => worker.postMessage('wake'),
    async stop() {
      stopping = true;
      clearTimeout(restart);
      if (!running) return;
      const ended = once(worker, 'exit');
      worker.postMessage('stop');
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<true>((resolve) => (timer = setTimeout(resolve, STOP_MS, true)));
      if ((await Promise.race([ended, timedOut])) === true) await worker.terminate();
      clearTimeout(timer);
    },
  };
}

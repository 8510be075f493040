/**
 * The outbox's sender's worker (docs/operations.md §12), started by src/mail/thread.ts: it opens
 * the database itself, runs the sender (src/mail/sender.ts) and tells its thread each log line and
 * each outcome. A `'wake'` reads the outbox now; a `'stop'` ends the sends under way, closes the
 * database and ends the worker.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { FORMS, formMigrations, letters } from '../forms/index.js';
import type { FormDefinition } from '../forms/define.js';
import { createLogger } from '../logging.js';
import { openSqlite, openPostgres } from '../storage/index.js';
import { startMailer } from './sender.js';
import type { MailWorkerData, MailWorkerMessage } from './thread.js';
import { createMailTransport } from './transport.js';

/** The connections of the worker's PostgreSQL pool: a lease, a row's read and a settle at a time. */
const POOL_SIZE = 2;

const port = parentPort!;
const data = workerData as MailWorkerData;
const tell = (message: MailWorkerMessage) => port.postMessage(message);
const logger = createLogger(data.level, { write: (line: string) => tell({ log: line }) });
const forms: readonly FormDefinition[] = data.formsModule === undefined ? FORMS : ((await import(data.formsModule)) as { FORMS: readonly FormDefinition[] }).FORMS;
// Already migrated by the thread that started this one: the forms' migrations only keep the list whole.
const migrations = formMigrations(forms);
const storage = 'file' in data.source ? await openSqlite(data.source.file, migrations) : await openPostgres({ url: data.source.url, poolSize: POOL_SIZE, onPoolError: (err) => logger.warn({ event: 'database_connection_lost', err }, 'database_connection_lost') }, migrations);
const mailer = startMailer({
  storage,
  transport: createMailTransport(data.smtpUrl, data.mailDir),
  letter: letters(storage, data.origin, forms, { notifyTo: data.notifyTo, secret: data.secret }),
  from: data.from,
  retryMs: data.retryMs,
  maxAttempts: data.maxAttempts,
  logger,
  metrics: { mail: { inc: ({ outcome }) => tell({ mail: outcome }) } },
});

port.on('message', async (message: 'wake' | 'stop') => {
  if (message === 'wake') return mailer.wake();
  await mailer.stop();
  await storage.close().catch((err: unknown) => logger.error({ err }, 'closing the database failed'));
  port.close();
});

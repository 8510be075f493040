/**
 * The outbox's sender as a thread or a process of its own runs it (docs/operations.md §12): the
 * database opened again from where it is, the forms loaded, the transport made, and the sender
 * (src/mail/sender.ts) started on them. The worker of src/mail/thread.ts runs it; so does the
 * benchmark's peer, in a process (bench/outbox-sender.ts).
 */
import type { Logger } from 'pino';
import { FORMS, formMigrations, letters } from '../forms/index.js';
import type { FormDefinition } from '../forms/define.js';
import { openStorage } from '../storage/index.js';
import { startMailer, type MailerOptions } from './sender.js';
import type { MailWorkerData } from './thread.js';
import { createMailTransport } from './transport.js';

/** The connections of the sender's PostgreSQL pool: a lease, a row's read and a settle at a time. */
const POOL_SIZE = 2;

/**
 * Opens the database and starts the sender on it.
 * @param data where the database is, the forms' module and the mail settings
 * @param side where its lines and outcomes go
 * @returns `wake()` reads the outbox now; `stop()` ends the sends under way and closes the database
 * @throws StorageUnavailableError when the database cannot be opened; the forms' module's error
 */
export async function openSender(data: Omit<MailWorkerData, 'level'>, { logger, metrics }: { logger: Logger; metrics: MailerOptions['metrics'] }): Promise<{ wake(): void; stop(): Promise<void> }> {
  const forms: readonly FormDefinition[] = data.formsModule === undefined ? FORMS : ((await import(data.formsModule)) as { FORMS: readonly FormDefinition[] }).FORMS;
  // Already migrated by whoever wrote it: the forms' migrations only keep the list whole.
  const migrations = formMigrations(forms);
  const { source } = data;
  const storage = await openStorage({ databaseUrl: 'url' in source ? source.url : undefined, databasePoolSize: POOL_SIZE }, { file: 'file' in source ? source.file : undefined, logger, forms: migrations });
  const mailer = startMailer({
    storage,
    transport: createMailTransport(data.smtpUrl, data.mailDir),
    letter: letters(storage, data.origin, forms, { notifyTo: data.notifyTo, secret: data.secret }),
    from: data.from,
    retryMs: data.retryMs,
    maxAttempts: data.maxAttempts,
    logger,
    metrics,
  });
  return {
    wake: () => mailer.wake(),
    async stop() {
      await mailer.stop();
      await storage.close().catch((err: unknown) => logger.error({ err }, 'closing the database failed'));
    },
  };
}

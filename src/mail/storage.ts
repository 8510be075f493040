/**
 * The storage as the outbox needs it (docs/operations.md §12): a stored submission wakes the
 * sender, one over its recipient's limit is logged and counted, and an erasure takes the
 * transport's copies of its e-mails along (docs/pages.md §7).
 */
import type { Logger } from 'pino';
import type { Metrics } from '../metrics/index.js';
import type { Storage } from '../storage/types.js';
import type { MailTransport } from './transport.js';

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
 * erasure that takes the transport's copies of its e-mails along.
 * @param storage any engine
 * @returns the same contract
 * @example
 * const storage = withMail(opened, { wake: () => mailer?.wake(), transport, logger, metrics });
 */
export function withMail(storage: Storage, { wake, transport, logger, metrics }: MailSide): Storage {
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

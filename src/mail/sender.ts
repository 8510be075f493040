/**
 * The outbox's sender (docs/operations.md §12): leases the messages that are due, composes and
 * delivers each, and records what became of it. A message is written with what it is about, in
 * one transaction (src/storage/), so nothing waits for SMTP and nothing is lost: a refusal or an
 * unreachable server is retried with a delay that doubles, up to an hour; a 5xx answer, or as many
 * tries as configured, sets it aside with a log line at `error`. The lease keeps instances apart,
 * and a stopping instance finishes its sends or gives their leases back. Messages are leased in
 * batches and sent several at once (over the transport's pool of connections), so a burst drains
 * in seconds, not minutes.
 */
import type { Logger } from 'pino';
import type { Job } from '../jobs.js';
import type { MailOutcome, OutboxMessage, Storage } from '../storage/types.js';
import { composeMail, type Letter } from './compose.js';
import { SMTP_CONNECTIONS, type MailTransport } from './transport.js';

/** How long a lease holds: far longer than a batch may take (src/mail/transport.ts's timeouts). */
const LEASE_MS = 10 * 60_000;
/** Sends under way at once: twice the SMTP pool's connections, so each has its next message ready. */
export const SENDS_AT_ONCE = 2 * SMTP_CONNECTIONS;
/** Messages leased at once: a few rounds of sends, so a lease read serves many. */
export const LEASE_BATCH = 4 * SENDS_AT_ONCE;
/** The longest delay between two tries. */
const MAX_DELAY_MS = 60 * 60_000;
/** How often the outbox is read for messages due (another instance's, a retry's): every 5 s, or
 * `MAIL_RETRY_MS` when shorter, but no more than 4 times a second. */
const POLL_MS = 5_000;
const MIN_POLL_MS = 250;
/** How long a stop waits for the send under way before it gives the message's lease back. */
const STOP_WAIT_MS = 5_000;

/** The outcomes of the sender's tries, as `eiland_mail_total` counts them. */
export type MailCounted = 'sent' | 'retried' | 'set_aside';

/** Options of {@link startMailer}. */
export interface MailerOptions {
  storage: Storage;
  transport: MailTransport;
  /**
   * The letter of a leased message, from the form its kind names and the row it is about
   * (src/forms/index.ts); undefined when the row is gone (erased since the lease).
   * @throws when no form sends messages of its kind
   */
  letter(message: OutboxMessage): Promise<Letter | undefined>;
  /** The sender (`MAIL_FROM`). */
  from: string;
  /** The first retry's delay in ms (`MAIL_RETRY_MS`); each next one doubles. */
  retryMs: number;
  /** Tries before a message is set aside (`MAIL_MAX_ATTEMPTS`). */
  maxAttempts: number;
  logger: Logger;
  /** Where the outcomes are counted (`eiland_mail_total`; in the worker, by the thread that started it). */
  metrics: { mail: { inc(labels: { outcome: MailCounted }): void } };
}

/** A running sender. */
export interface Mailer extends Job {
  /** Reads the outbox now (a message was just written); a read under way is followed by another. */
  wake(): void;
  /** Stops leasing; resolves once the sends under way are settled, or their leases given back after 5 s. */
  stop(): Promise<void>;
}

/**
 * A failed send's codes, for the log, and the server's answer, for the outbox's `last_error` only
 * (it may name the address: never logged).
 */
function failureOf(error: unknown): { responseCode: number | undefined; code: string | undefined; response: string } {
  const { responseCode, code, response, message } = (error ?? {}) as { responseCode?: unknown; code?: unknown; response?: unknown; message?: unknown };
  return {
    responseCode: typeof responseCode === 'number' ? responseCode : undefined,
    code: typeof code === 'string' ? code : undefined,
    response: String(response ?? message ?? error).slice(0, 500),
  };
}

/**
 * Starts the sender: reads the outbox at once, on {@link Mailer.wake}, and every 5 s (or
 * `retryMs`, when shorter, but not under 250 ms); timers do not keep the process alive.
 */
export function startMailer(options: MailerOptions): Mailer {
  const { storage, transport, logger, metrics } = options;
  const pollMs = Math.max(MIN_POLL_MS, Math.min(POLL_MS, options.retryMs));
  let stopping = false;
  let again = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** The leased messages not yet begun: a stop gives them back. */
  let waiting: OutboxMessage[] = [];
  /** The messages whose send is under way. */
  const sending = new Set<OutboxMessage>();
  /** Messages whose lease a stop gave back: what becomes of their sends is no longer recorded. */
  const abandoned = new Set<OutboxMessage>();

  /** Records an outcome; whether it was recorded (false: the lease was lost, or the message erased). */
  const settle = async (message: OutboxMessage, outcome: MailOutcome): Promise<boolean> => {
    try {
      return await storage.settleMail(message, outcome);
    } catch (err) {
      // The lease stays: once it ends the message is due again (sent twice at worst, never lost).
      logger.error({ event: 'mail_settle_failed', mail: message.id, state: outcome.state, err }, 'mail_settle_failed');
      // Not known to be gone: a copy just written is kept.
      return true;
    }
  };

  const deliver = async (message: OutboxMessage) => {
    try {
      const letter = await options.letter(message);
      // Erased since the lease: its outbox row went with it, nothing to send or settle.
      if (letter === undefined) return;
      const { subject, text, html } = composeMail(letter);
      await transport.send({
        from: options.from,
        // The address alone: a display name would show more of what the sender typed than the greeting does.
        to: typeof letter.to === 'string' ? { name: '', address: letter.to } : letter.to.map((address) => ({ name: '', address })),
        ...(letter.replyTo && { replyTo: { name: '', address: letter.replyTo } }),
        subject,
        text,
        html,
        // The same on every try, so a receiver can tell a second delivery of one message.
        messageId: `<${message.id}@eiland>`,
        headers: { 'Auto-Submitted': 'auto-generated' },
      }, message.about);
    } catch (error) {
      if (abandoned.has(message)) return;
      const { responseCode, code, response } = failureOf(error);
      const fields = { mail: message.id, kind: message.kind, attempts: message.attempts, responseCode, code };
      // A 5xx refuses this message for good, but a refused login (EAUTH) is the configuration's:
      // every message waits for it to be fixed.
      const refused = responseCode !== undefined && responseCode >= 500 && code !== 'EAUTH';
      if (refused || message.attempts >= options.maxAttempts) {
        await settle(message, { state: 'set_aside', error: response });
        metrics.mail.inc({ outcome: 'set_aside' });
        logger.error({ event: 'mail_set_aside', ...fields }, 'mail_set_aside');
      } else {
        const delayMs = Math.min(options.retryMs * 2 ** (message.attempts - 1), MAX_DELAY_MS);
        await settle(message, { state: 'retry', delayMs, error: response });
        metrics.mail.inc({ outcome: 'retried' });
        logger.warn({ event: 'mail_retry', ...fields, retryInMs: delayMs }, 'mail_retry');
      }
      return;
    }
    if (abandoned.has(message)) return;
    // Erased while it was sent: the copy just written goes too (docs/operations.md §12).
    if (!(await settle(message, { state: 'sent' }))) await transport.forget(message.about);
    metrics.mail.inc({ outcome: 'sent' });
    logger.info({ event: 'mail_sent', mail: message.id, kind: message.kind, attempts: message.attempts }, 'mail_sent');
  };

  /** Sends the waiting messages, {@link SENDS_AT_ONCE} at a time, until none is left or a stop begins. */
  const worker = async () => {
    for (let message = waiting.shift(); message !== undefined && !stopping; message = waiting.shift()) {
      sending.add(message);
      await deliver(message).finally(() => sending.delete(message));
    }
  };

  /** Gives back what a stop finds leased and not begun: due again at once, the try not counted. */
  const release = (messages: OutboxMessage[]) => Promise.all(messages.map((message) => settle(message, { state: 'released' })));

  // A batch per lease read; the next read once the batch is done, so a lease never waits long.
  const drain = async () => {
    while (!stopping) {
      try {
        waiting = await storage.leaseMail(LEASE_BATCH, LEASE_MS);
      } catch (err) {
        logger.warn({ event: 'mail_lease_failed', err }, 'mail_lease_failed');
        return;
      }
      logger.debug({ event: 'mail_leased', messages: waiting.length }, 'mail_leased');
      if (waiting.length === 0) return;
      const full = waiting.length === LEASE_BATCH;
      await Promise.all(Array.from({ length: Math.min(SENDS_AT_ONCE, waiting.length) }, worker));
      // Leased while a stop began: given back.
      await release(waiting.splice(0));
      if (!full) return;
    }
  };

  const run = () => {
    if (stopping) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    running = drain()
      .catch((err: unknown) => logger.error({ event: 'mail_failed', err }, 'mail_failed'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          run();
        } else if (!stopping) {
          timer = setTimeout(run, pollMs);
          timer.unref();
        }
      });
  };

  run();
  return {
    name: 'mailer',
    wake: () => setImmediate(run),
    async stop() {
      stopping = true;
      clearTimeout(timer);
      const under = running;
      if (under) {
        let wait: NodeJS.Timeout | undefined;
        const finished = await Promise.race([under.then(() => true), new Promise<false>((r) => (wait = setTimeout(r, STOP_WAIT_MS, false)))]);
        clearTimeout(wait);
        if (!finished) {
          // The sends go on until the process ends; their messages are due again for another
          // instance (an SMTP server keeps no message whose transaction did not end).
          for (const message of sending) abandoned.add(message);
          await release([...sending, ...waiting.splice(0)]);
        }
      }
      transport.close();
    },
  };
}

/**
 * Where the outbox's e-mails go (docs/operations.md §12): to an SMTP server through Nodemailer
 * when `SMTP_URL` is set, else each message as an `.eml` file under `data/mail/` (the same bytes
 * an SMTP server would get), so a developer can open what would have been sent.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';

/** The bounds of one SMTP send: connecting, the server's greeting, and silence on the socket. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** Where messages go, as the start-up log says it (never the URL: it may hold a password). */
export type MailTarget = { mail: 'smtp'; smtpHost: string } | { mail: 'files'; mailDir: string };

/** A way of delivering messages. */
export interface MailTransport {
  readonly target: MailTarget;
  /**
   * Delivers one message.
   * @throws Nodemailer's error when the server refuses it or cannot be reached: `responseCode`
   *   is the SMTP server's answer (4xx, 5xx) where it gave one, `code` Nodemailer's
   *   (`ECONNECTION`, `ETIMEDOUT`, `EENVELOPE`…)
   */
  send(mail: SendMailOptions): Promise<void>;
  /** Closes idle connections. */
  close(): void;
}

/**
 * The transport of a configuration.
 * @param smtpUrl `smtp://user:password@host:port` (STARTTLS when offered) or `smtps://…` (TLS);
 *   undefined: files
 * @param dir the folder of the `.eml` files, made when the first is written
 */
export function createMailTransport(smtpUrl: string | undefined, dir: string): MailTransport {
  if (smtpUrl !== undefined) {
    const smtp = nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS });
    const { hostname, port } = new URL(smtpUrl);
    return {
      target: { mail: 'smtp', smtpHost: port ? `${hostname}:${port}` : hostname },
      send: async (mail) => void (await smtp.sendMail(mail)),
      close: () => smtp.close(),
    };
  }
  // The message as Nodemailer would send it, as a buffer: written whole or not at all.
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    target: { mail: 'files', mailDir: dir },
    async send(mail) {
      const { message } = await stream.sendMail(mail);
      // Named by time, then by the message's own id (its Message-ID's local part), so a folder sorts in order.
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${String(mail.messageId).replace(/^<|@.*$/g, '')}.eml`;
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, `${name}.tmp`), message as Buffer);
      await rename(join(dir, `${name}.tmp`), join(dir, name));
    },
    close: () => stream.close(),
  };
}

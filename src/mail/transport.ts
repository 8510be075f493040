/**
 * Where the outbox's e-mails go (docs/operations.md §12): to an SMTP server through Nodemailer
 * when `SMTP_URL` is set, else each message as an `.eml` file under `data/mail/` (the same bytes
 * an SMTP server would get), so a developer can open what would have been sent. The files are a
 * copy of personal data: a person's go with their erasure, and every file with the retention job
 * (docs/operations.md §11).
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';

/** The bounds of one SMTP send: connecting, the server's greeting, and silence on the socket. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * Nodemailer's pool: connections kept open and used in parallel (the sender has twice as many
 * sends under way, src/mail/sender.ts), each for many messages before it is renewed.
 */
const SMTP_POOL = { pool: true, maxConnections: 5, maxMessages: 500 };

/** The SMTP connections an instance keeps open at most (docs/operations.md §12). */
export const SMTP_CONNECTIONS = SMTP_POOL.maxConnections;

/** The messages are Eiland's own: no part is read from a file or a URL (and building them is cheaper). */
const NO_ATTACHMENTS = { disableFileAccess: true, disableUrlAccess: true };

/** Where messages go, as the start-up log says it (never the URL: it may hold a password). */
export type MailTarget = { mail: 'smtp'; smtpHost: string } | { mail: 'files'; mailDir: string };

/** A way of delivering messages. */
export interface MailTransport {
  readonly target: MailTarget;
  /**
   * Delivers one message.
   * @param about the id of the row the message is about (a file is named by it)
   * @throws Nodemailer's error when the server refuses it or cannot be reached: `responseCode`
   *   is the SMTP server's answer (4xx, 5xx) where it gave one, `code` Nodemailer's
   *   (`ECONNECTION`, `ETIMEDOUT`, `EENVELOPE`…)
   */
  send(mail: SendMailOptions, about: string): Promise<void>;
  /**
   * Deletes every copy this transport kept of the messages about a row (its person erased it).
   * @returns how many copies were deleted (an SMTP server's copies are not ours: 0)
   */
  forget(about: string): Promise<number>;
  /**
   * Deletes every copy written before a time (the retention job's cut-off).
   * @returns how many copies were deleted
   */
  expire(before: Date): Promise<number>;
  /** Closes idle connections. */
  close(): void;
}

/**
 * A file's name: its time (sortable, and read back by `expire`), what it is about, its own id;
 * `.tmp` while it is written. A file of the first mailbox (before its names said what a message
 * is about: `<time>-<id>.eml`) matches without the row, so the retention job still finds it.
 */
const FILE_NAME = /^(\d{4}-\d\d-\d\dT\d\d)-(\d\d)-(\d\d)-(\d{3}Z)-(?:([0-9a-f-]{36})-)?[0-9a-f-]{36}\.eml(?:\.tmp)?$/;

/** The time a file of the mailbox was written, from its name; undefined for any other file. */
function writtenAt(name: string): Date | undefined {
  const [, dayAndHour, minutes, seconds, ms] = FILE_NAME.exec(name) ?? [];
  return dayAndHour === undefined ? undefined : new Date(`${dayAndHour}:${minutes}:${seconds}.${ms}`);
}

/**
 * The `.eml` files of a folder: each written whole, named `<time>-<about>-<message id>.eml`.
 * @param dir the folder, made when the first file is written
 */
function fileMailbox(dir: string): MailTransport {
  // The message as Nodemailer would send it, as a buffer: written whole or not at all.
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix', ...NO_ATTACHMENTS });
  /** Deletes the mailbox's files that `picked` chooses; a folder not made yet holds none. */
  const remove = async (picked: (name: string) => boolean) => {
    const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => FILE_NAME.test(name) && picked(name));
    await Promise.all(names.map((name) => rm(join(dir, name), { force: true })));
    return names.length;
  };
  return {
    target: { mail: 'files', mailDir: dir },
    async send(mail, about) {
      const { message } = await stream.sendMail(mail);
      // Its Message-ID's local part is the outbox row's id.
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${about}-${String(mail.messageId).replace(/^<|@.*$/g, '')}.eml`;
      const temporary = join(dir, `${name}.tmp`);
      // Synchronous: the sender has a thread of its own (src/mail/thread.ts), where a file's four
      // system calls cost less than handing each to the thread pool and back.
      const write = () => writeFileSync(temporary, message as Buffer);
      try {
        // The folder is made when the first file finds it missing, not looked for before each.
        try {
          write();
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
          mkdirSync(dir, { recursive: true });
          write();
        }
        renameSync(temporary, join(dir, name));
      } catch (error) {
        // A write cut short (a full disk) leaves no part of the message behind; the send is tried again.
        rmSync(temporary, { force: true });
        throw error;
      }
    },
    forget: (about) => remove((name) => FILE_NAME.exec(name)![5] === about),
    expire: (before) => remove((name) => writtenAt(name)! < before),
    close: () => stream.close(),
  };
}

/**
 * The transport of a configuration.
 * @param smtpUrl `smtp://user:password@host:port` (STARTTLS when offered) or `smtps://…` (TLS);
 *   undefined: files
 * @param dir the folder of the `.eml` files, made when the first is written
 */
export function createMailTransport(smtpUrl: string | undefined, dir: string): MailTransport {
  if (smtpUrl === undefined) return fileMailbox(dir);
  const smtp = nodemailer.createTransport({ url: smtpUrl, ...SMTP_POOL, ...SMTP_TIMEOUTS, ...NO_ATTACHMENTS });
  const { hostname, port } = new URL(smtpUrl);
  return {
    target: { mail: 'smtp', smtpHost: port ? `${hostname}:${port}` : hostname },
    send: async (mail) => void (await smtp.sendMail(mail)),
    // Delivered is no longer ours: nothing is kept here.
    forget: async () => 0,
    expire: async () => 0,
    close: () => smtp.close(),
  };
}

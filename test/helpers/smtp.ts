/**
 * A real SMTP server on loopback for the outbox's tests (docs/operations.md §12): the
 * `smtp-server` package of the Nodemailer project, answering as a test sets it (accept, a 4xx, a
 * 5xx, slowly, or never), stopped and started again on its port (a server down and back), with
 * every message it accepted parsed by `mailparser`.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { waitFor } from './wait.js';

/**
 * How the server answers a message's data: `accept`; `tempfail` (451, try again later); `reject`
 * (550, naming the recipients, as servers do); `slow` (accepts after `slowMs`); `hang` (never
 * answers).
 */
export type SmtpMode = 'accept' | 'tempfail' | 'reject' | 'slow' | 'hang';

/** A running test SMTP server. */
export interface TestSmtp {
  /** `smtp://127.0.0.1:<port>`, for `SMTP_URL`. */
  url: string;
  /** How it answers now; a test changes it. */
  mode: SmtpMode;
  /** The delay of `slow`, in ms (default 2000). */
  slowMs: number;
  /** Messages accepted, parsed. */
  received: ParsedMail[];
  /** The envelope's recipients (`RCPT TO`) of each message accepted, in the order of `received`. */
  recipients: string[][];
  /** Messages whose data arrived, whatever the answer. */
  tries: number;
  /** Waits until at least `n` messages were accepted. */
  waitForReceived(n: number, ms?: number): Promise<void>;
  /** Stops listening and drops every connection (the server down). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

/**
 * Starts an SMTP server on a free loopback port (no TLS, no authentication required).
 * @param mode how it answers at first
 */
export async function startSmtp(mode: SmtpMode = 'accept'): Promise<TestSmtp> {
  let server: SMTPServer | undefined;
  let port = 0;
  const smtp: TestSmtp = {
    url: '',
    mode,
    slowMs: 2000,
    received: [],
    recipients: [],
    tries: 0,
    waitForReceived: (n, ms = 10_000) => waitFor(() => smtp.received.length >= n, ms),
    async stop() {
      const closing = server;
      server = undefined;
      if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
    async start() {
      const started = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        // Closing waits for open connections no longer than this.
        closeTimeout: 100,
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            smtp.tries++;
            const answer = smtp.mode;
            if (answer === 'hang') return;
            if (answer === 'tempfail') return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
            const recipients = session.envelope.rcptTo.map((r) => `<${r.address}>`).join(', ');
            if (answer === 'reject') return callback(Object.assign(new Error(`5.1.1 ${recipients}: Recipient address rejected: Mailbox unavailable`), { responseCode: 550 }));
            const accept = () =>
              void simpleParser(Buffer.concat(chunks)).then((parsed) => {
                smtp.received.push(parsed);
                smtp.recipients.push(session.envelope.rcptTo.map((r) => r.address));
                callback();
              }, callback);
            if (answer === 'slow') setTimeout(accept, smtp.slowMs);
            else accept();
          });
        },
      });
      await new Promise<void>((resolve, reject) => {
        started.server.once('error', reject);
        started.listen(port, '127.0.0.1', () => resolve());
      });
      port = (started.server.address() as AddressInfo).port;
      smtp.url = `smtp://127.0.0.1:${port}`;
      server = started;
    },
  };
  await smtp.start();
  return smtp;
}

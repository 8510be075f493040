// Eiland's outbox sender (src/mail/open-sender.ts) in a process of its own, for the benchmark's
// Next peer (bench/next/README.md): it sends the e-mails of the registrations Next stores in
// Eiland's database as an Eiland instance's sender thread sends its own, to `.eml` files. Nothing
// wakes it after a post, so it reads the outbox every 250 ms (its shortest poll). Prints one line
// once it runs; ends on SIGTERM once its sends are settled.
//
//   node --import tsx --import ./src/env.ts bench/outbox-sender.ts <database file> <mail folder> <origin>
import { createLogger } from '../src/logging.js';
import { openSender } from '../src/mail/open-sender.js';

const [file, mailDir, origin] = process.argv.slice(2);
if (!file || !mailDir || !origin) throw new TypeError('usage: bench/outbox-sender.ts <database file> <mail folder> <origin>');
const logger = createLogger('info');
const sender = await openSender(
  { source: { file }, formsModule: undefined, smtpUrl: undefined, mailDir, origin, from: 'Eiland <noreply@localhost>', retryMs: 250, maxAttempts: 5, notifyTo: undefined, secret: '' },
  { logger, metrics: { mail: { inc: () => undefined } } },
);
// The sender's timers do not hold a process open (an instance's server does): this one does, until the signal.
const alive = setInterval(() => undefined, 60_000);
process.once('SIGTERM', () => {
  clearInterval(alive);
  void sender.stop();
});
logger.info({ event: 'sender_started' }, 'sender_started');

/**
 * The outbox's sender's worker (docs/operations.md §12), started by src/mail/thread.ts: it runs
 * the sender (src/mail/open-sender.ts) and tells its thread each log line and each outcome. A
 * `'wake'` reads the outbox now; a `'stop'` ends the sends under way, closes the database and
 * ends the worker.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createLogger } from '../logging.js';
import { openSender } from './open-sender.js';
import type { MailWorkerData, MailWorkerMessage } from './thread.js';

const port = parentPort!;
const data = workerData as MailWorkerData;
const tell = (message: MailWorkerMessage) => port.postMessage(message);
const logger = createLogger(data.level, { write: (line: string) => tell({ log: line }) });
const sender = await openSender(data, { logger, metrics: { mail: { inc: ({ outcome }) => tell({ mail: outcome }) } } });

port.on('message', async (message: 'wake' | 'stop') => {
  if (message === 'wake') return sender.wake();
  await sender.stop();
  port.close();
});

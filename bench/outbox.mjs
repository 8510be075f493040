// The outbox phase of `npm run bench` (docs/performance.md §1–§2): how fast one instance of the
// production bundle delivers its outbox (docs/operations.md §12), measured from outside, as a
// black box, once to the file mailbox (no SMTP_URL: one `.eml` file each under the deployment's
// data/mail/) and once to an SMTP server on loopback that this module runs (smtp-server: every
// message accepted unread, its envelope's recipients and the time it was accepted kept).
//
// For each: a fresh deployment whose database holds a backlog of N registrations, each with its
// e-mail pending (bench/fill-outbox.ts), the instance started on it, and the time from its
// `server_started` line until N e-mails have arrived; once the first has arrived, one registration
// posted over HTTP as a browser would, and the time from its post until its own e-mail arrives.
// Every wait is bounded: what has not arrived by then is reported as such.
import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';
import { formPost } from './measure.mjs';
import { fetchRaw } from './page-scripts.mjs';
import { deployment, startServer } from './servers.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The backlog's size unless asked otherwise (`--backlog N`). */
export const DEFAULT_BACKLOG = 5000;
/** The address of the registration posted during the backlog: one of its own. */
export const LATE_ADDRESS = 'laatkomer@voorbeeld.nl';
/** The backlog's addresses (bench/fill-outbox.ts), as an SMTP envelope names them. */
const BACKLOG_ADDRESS = /^backlog\.\d+@voorbeeld\.nl$/;
/** An e-mail written by the file mailbox: `<time>-<row id>-<outbox id>.eml` (src/mail/transport.ts). */
const EML = /^.+-([0-9a-f-]{36})-([0-9a-f-]{36})\.eml$/;
/** How often the mailbox folder is read whole, beside the file system's events (anything they missed). */
const RECONCILE_MS = 1000;
/** Bounds of the steps around the measurement: a request, stopping the instance. */
const REQUEST_MS = 10_000;
const STOP_MS = 15_000;

/**
 * The waits' bound for a backlog: 120 s, or 10 ms an e-mail for a backlog over 12 000 (half the
 * budget's rate), from the instance's start.
 * @param {number} backlog
 * @returns {number} ms
 */
export const timeoutFor = (backlog) => Math.max(120_000, backlog * 10);

/**
 * The figures of one mailbox. Times in seconds, rates in e-mails a second.
 * @typedef {object} MailboxFigures
 * @property {'files'|'smtp'} mailbox where the instance delivered: `.eml` files, or SMTP on loopback
 * @property {number} backlog e-mails pending in the outbox when the instance started
 * @property {number|null} fillS the time bench/fill-outbox.ts took to write them (its own count:
 *   from its open of the database to its last save)
 * @property {boolean} drained whether all `backlog` e-mails arrived within `timeoutS`
 * @property {number} arrived distinct backlog e-mails that arrived (at most `backlog`)
 * @property {number} duplicates arrivals beyond the first of one message (files: of one outbox id;
 *   SMTP: to one recipient); 0 unless a message was delivered twice
 * @property {number|null} firstS from `server_started` until the first backlog e-mail arrived
 * @property {number|null} drainS from `server_started` until the last of the backlog arrived; null
 *   when it did not within `timeoutS`
 * @property {number|null} ratePerS `backlog / drainS`; when not drained, what arrived per second of
 *   `timeoutS`; null when the phase failed before the instance started
 * @property {number} timeoutS how long the waits were allowed, from `server_started`
 * @property {LateFigures} late the registration posted during the backlog
 * @property {string} [error] why the phase could not measure (the backlog not written, the
 *   instance not started, a request that failed)
 */

/**
 * The registration posted during the backlog.
 * @typedef {object} LateFigures
 * @property {number|null} status the post's answer (303 expected); null when it was not made (no
 *   e-mail arrived to show the drain under way)
 * @property {string|null} id its row id, from the 303's `Location: /aanmeldingen/<id>`
 * @property {number|null} postedAtS when it was posted, from `server_started`
 * @property {number|null} backlogArrivedBefore backlog e-mails that had arrived when it was posted
 *   (less than `backlog`: posted during the drain)
 * @property {boolean} arrived whether its e-mail arrived within the bound
 * @property {number|null} delayS from its post until its e-mail arrived
 */

/**
 * What arrived in a mailbox: each message once, by key, with the time it first arrived (epoch
 * ms), and waits on it that end when a condition holds or at a deadline.
 */
class Arrivals {
  /** @param {(tag: string) => boolean} counts which messages {@link Arrivals.counted} counts */
  constructor(counts) {
    this.counts = counts;
  }
  /** Distinct messages whose tag `counts` holds for. */
  counted = 0;
  /** Observations already counted: file names; SMTP messages by number. */
  seen = new Set();
  /** @type {Map<string, { tag: string, at: number }>} message key → its first arrival */
  messages = new Map();
  /** @type {Map<string, number>} tag (files: the row id; SMTP: the recipient) → first arrival */
  byTag = new Map();
  duplicates = 0;
  /** @type {Set<() => void>} */
  listeners = new Set();

  /**
   * @param {string|number} observation what was seen (counted once)
   * @param {string} key the message
   * @param {string} tag what it is about, or to whom
   * @param {number} at epoch ms
   */
  record(observation, key, tag, at) {
    if (this.seen.has(observation)) return;
    this.seen.add(observation);
    if (this.messages.has(key)) this.duplicates += 1;
    else {
      this.messages.set(key, { tag, at });
      if (this.counts(tag)) this.counted += 1;
    }
    if (!this.byTag.has(tag)) this.byTag.set(tag, at);
    for (const listener of this.listeners) listener();
  }

  /**
   * @param {() => boolean} done checked now and after every arrival
   * @param {number} deadline epoch ms
   * @returns {Promise<boolean>} true once `done()` holds, false at the deadline
   */
  until(done, deadline) {
    if (done()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (value) => {
        clearTimeout(timer);
        this.listeners.delete(check);
        resolve(value);
      };
      const check = () => done() && finish(true);
      const timer = setTimeout(() => finish(done()), Math.max(0, deadline - Date.now()));
      this.listeners.add(check);
    });
  }
}

/**
 * Watches a folder for the file mailbox's e-mails: the file system's events (a file is renamed
 * into place once written whole), and the folder read whole every second and on `reconcile()`.
 * @param {string} dir made now if missing (the instance would make it at its first e-mail)
 * @param {Arrivals} arrivals
 */
async function watchFiles(dir, arrivals) {
  await mkdir(dir, { recursive: true });
  const seen = (name, at) => {
    const file = EML.exec(name);
    if (file) arrivals.record(name, file[2], file[1], at);
  };
  const watcher = watch(dir, (_event, name) => name && seen(String(name), Date.now()));
  watcher.on('error', () => {}); // the folder goes with its deployment; the reads below still count
  const reconcile = async () => {
    for (const name of await readdir(dir).catch(() => [])) seen(name, Date.now());
  };
  const timer = setInterval(() => void reconcile(), RECONCILE_MS);
  return {
    reconcile,
    close() {
      clearInterval(timer);
      watcher.close();
    },
  };
}

/**
 * An SMTP server on a free loopback port that accepts every message without reading it (no TLS,
 * no login asked, no reverse lookup of the client), and records its envelope's recipients and
 * the time it answered 250.
 * @param {Arrivals} arrivals
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 */
async function startSmtp(arrivals) {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    closeTimeout: 100,
    onData(stream, session, callback) {
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase()).join(',');
        arrivals.record((received += 1), to, to, Date.now());
        callback();
      });
      stream.resume();
    },
  });
  await new Promise((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    url: `smtp://127.0.0.1:${server.server.address().port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * Rejects once `ms` have passed without `promise` settling.
 * @template T
 * @param {Promise<T>} promise
 * @param {number} ms
 * @param {string} what named in the error
 * @returns {Promise<T>}
 */
function bounded(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * Writes the backlog into a database file: bench/fill-outbox.ts in a process of its own.
 * @param {string} dbFile
 * @param {number} backlog
 * @param {number} timeoutMs the process is killed after this long
 * @returns {Promise<number>} the time its saves took, in s
 * @throws Error when it fails or takes too long
 */
function fillOutbox(dbFile, backlog, timeoutMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', './src/env.ts', 'bench/fill-outbox.ts', dbFile, String(backlog)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(JSON.parse(out).ms / 1000);
      else reject(new Error(`bench/fill-outbox.ts ${signal ? `killed after ${timeoutMs / 1000} s` : `exited with ${code}`}: ${err.trim()}`));
    });
  });
}

/** Stops an instance; one that has not exited after 15 s is killed. */
async function stopBounded(server) {
  let timer;
  const kill = new Promise((resolve) => {
    timer = setTimeout(() => {
      try {
        process.kill(server.pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
      resolve();
    }, STOP_MS);
  });
  await Promise.race([server.stop(), kill]);
  clearTimeout(timer);
}

/**
 * One mailbox: a fresh deployment, its backlog, the instance on it, the drain and the late
 * registration.
 * @param {'files'|'smtp'} mailbox
 * @param {number} backlog
 * @param {(line: string) => void} progress
 * @returns {Promise<MailboxFigures>}
 */
async function measureMailbox(mailbox, backlog, progress) {
  const timeoutMs = timeoutFor(backlog);
  /** @type {LateFigures} */
  const late = { status: null, id: null, postedAtS: null, backlogArrivedBefore: null, arrived: false, delayS: null };
  /** @type {MailboxFigures} */
  const figures = { mailbox, backlog, fillS: null, drained: false, arrived: 0, duplicates: 0, firstS: null, drainS: null, ratePerS: null, timeoutS: timeoutMs / 1000, late };
  // Backlog e-mails are told apart by their address (SMTP), or as every one but the late
  // registration's, known by its row id once it is answered (files).
  const arrivals = new Arrivals(mailbox === 'smtp' ? (tag) => BACKLOG_ADDRESS.test(tag) : () => true);
  /** The late registration's tag: its address (SMTP) or its row id (files), once it is answered 303. */
  let lateTag;
  const lateArrived = () => lateTag !== undefined && arrivals.byTag.has(lateTag);
  const backlogArrived = () => arrivals.counted - (mailbox === 'files' && lateArrived() ? 1 : 0);
  const deployed = await deployment();
  let files;
  let smtp;
  let server;
  let started;
  /** When the waits ended (epoch ms): what arrives later is not counted. */
  let ended;
  try {
    progress(`outbox to ${mailbox}: ${backlog} registrations with their e-mails pending, written into a fresh deployment's database (bench/fill-outbox.ts)`);
    figures.fillS = await fillOutbox(deployed.dbFile, backlog, timeoutMs);
    const env = {};
    if (mailbox === 'files') files = await watchFiles(join(deployed.dir, 'data', 'mail'), arrivals);
    else {
      smtp = await startSmtp(arrivals);
      env.SMTP_URL = smtp.url;
    }
    progress(`outbox to ${mailbox}: the instance started, the backlog drained (at most ${timeoutMs / 1000} s), a registration posted once the first e-mail has arrived`);
    server = await startServer('eiland', deployed, { env });
    started = server.startedAt;
    const deadline = started + timeoutMs;

    // A registration during the backlog: once the first e-mail shows the drain under way.
    if (await arrivals.until(() => arrivals.messages.size > 0, deadline)) {
      const form = await bounded(formPost(server.port, LATE_ADDRESS), REQUEST_MS, 'GET /aanmelden');
      late.backlogArrivedBefore = backlogArrived();
      const postedAt = Date.now();
      late.postedAtS = (postedAt - started) / 1000;
      const answer = await bounded(fetchRaw(server.port, '/aanmelden', { method: 'POST', headers: form.headers, body: form.body }), REQUEST_MS, 'POST /aanmelden');
      late.status = answer.status;
      late.id = /^\/aanmeldingen\/([0-9a-f-]{36})$/.exec(String(answer.headers.location ?? ''))?.[1] ?? null;
      if (answer.status === 303) lateTag = mailbox === 'smtp' ? LATE_ADDRESS : (late.id ?? undefined);
      // The drain, and the late registration's e-mail (when there is one to wait for).
      await arrivals.until(() => backlogArrived() >= backlog && (lateTag === undefined || lateArrived()), deadline);
      await files?.reconcile();
      ended = Math.min(Date.now(), deadline);
      if (lateArrived()) {
        late.arrived = true;
        late.delayS = (arrivals.byTag.get(lateTag) - postedAt) / 1000;
      }
    }
  } catch (error) {
    figures.error = error instanceof Error ? error.message : String(error);
  } finally {
    ended ??= started === undefined ? undefined : Math.min(Date.now(), started + timeoutMs);
    if (server) await stopBounded(server);
    files?.close();
    await smtp?.close();
    await deployed.remove();
  }
  if (started !== undefined && ended !== undefined) {
    const isLate = (tag) => tag === lateTag;
    const times = [...arrivals.messages.values()].filter((m) => m.at <= ended && arrivals.counts(m.tag) && !isLate(m.tag)).map((m) => m.at).sort((a, b) => a - b);
    figures.arrived = Math.min(times.length, backlog);
    figures.duplicates = arrivals.duplicates;
    figures.firstS = times.length > 0 ? (times[0] - started) / 1000 : null;
    figures.drained = times.length >= backlog;
    figures.drainS = figures.drained ? (times[backlog - 1] - started) / 1000 : null;
    figures.ratePerS = figures.drained ? backlog / figures.drainS : figures.arrived / ((ended - started) / 1000);
  }
  return figures;
}

/**
 * The outbox phase: one instance's e-mail throughput to files and to SMTP.
 * @param {{ backlog?: number, progress?: (line: string) => void }} [options] backlog: e-mails
 *   pending when the instance starts (default {@link DEFAULT_BACKLOG}); progress: one line per step
 * @returns {Promise<{ backlog: number, files: MailboxFigures, smtp: MailboxFigures }>}
 */
export async function measureOutbox({ backlog = DEFAULT_BACKLOG, progress = (line) => process.stderr.write(`… ${line}\n`) } = {}) {
  const files = await measureMailbox('files', backlog, progress);
  const smtp = await measureMailbox('smtp', backlog, progress);
  return { backlog, files, smtp };
}

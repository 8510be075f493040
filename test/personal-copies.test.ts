/**
 * What a person erases, and what the retention job deletes, is gone from every file Eiland writes
 * (docs/pages.md §7, docs/operations.md §11, §12): the SQLite database and its WAL, read as raw
 * bytes, and the `.eml` copies of the e-mails. Another person's data stays, so the search is
 * shown to find what is there.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { startMailer } from '../src/mail/sender.js';
import { createMailTransport } from '../src/mail/transport.js';
import { createMetrics } from '../src/metrics/index.js';
import { startRetention } from '../src/retention.js';
import type { Storage } from '../src/storage/types.js';
import { openForm, postForm, VALID } from './helpers/form.js';
import { logCollector } from './helpers/logs.js';
import { serverWith } from './helpers/mail-server.js';
import { REGISTRATION, everyTable, tempStorage } from './helpers/temp-storage.js';
import { waitFor } from './helpers/wait.js';
import { registrations } from '../src/forms/registration.js';
import { letters, retained } from '../src/forms/index.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Two people, each with what no other row holds. */
const ERASED = { ...VALID, naam: 'Wilhelmina Zwaluwstaart', email: 'wilhelmina.zwaluw@voorbeeld.nl', gebruikersnaam: 'wilhelmina_z' };
const KEPT = { ...VALID, naam: 'Bartholomeus Kievit', email: 'bartholomeus.kievit@voorbeeld.nl', gebruikersnaam: 'bart_k' };

/**
 * Every file under a folder, with its bytes as Latin-1 text (so any encoding of ASCII shows). A file
 * gone between the listing and its reading (an `.eml.tmp` just renamed) is left out: its new name
 * is read the next time.
 */
async function filesUnder(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (bytes) files.set(file, bytes.toString('latin1'));
  }
  return files;
}

/** The files of a folder that hold any of the strings. */
async function holding(dir: string, strings: string[]): Promise<string[]> {
  return [...(await filesUnder(dir))].filter(([, bytes]) => strings.some((s) => bytes.includes(s))).map(([file]) => file);
}

describe('personal data is gone from every file (docs/operations.md §11, §12)', () => {
  it('an erasure leaves nothing of the person in eiland.db, its WAL or the e-mail files', async (t) => {
    const site = await serverWith(t, {});
    const dir = dirname(site.temp.file);
    const kept = await site.post('/aanmelden', KEPT);
    const erased = await site.post('/aanmelden', ERASED);
    await waitFor(() => site.events('mail_sent').length === 2, 10_000);
    const id = erased.location.split('/').pop()!;
    const traces = [ERASED.naam, ERASED.email, id];
    assert.ok((await holding(dir, traces)).some((file) => file.endsWith('.eml')), 'before: the e-mail file holds the person');

    const session = await openForm(site.app, erased.location);
    assert.equal((await postForm(site.app, `${erased.location}/verwijderen`, { bevestigd: 'ja' }, session)).status, 303);

    assert.deepEqual(await holding(dir, traces), [], 'nothing of the erased person in any file');
    const files = await filesUnder(dir);
    assert.ok([...files.keys()].some((file) => file.endsWith('.eml') && files.get(file)!.includes(kept.location)), "the other person's e-mail stays");
    assert.ok([...files.values()].some((bytes) => bytes.includes(KEPT.email)), "the other person's row stays");
  });

  it('a retention run leaves nothing of the expired people in eiland.db, its WAL or the e-mail files', async (t) => {
    const site = await serverWith(t, {});
    const dir = dirname(site.temp.file);
    const { location } = await site.post('/aanmelden', ERASED);
    await site.post('/contact', { naam: KEPT.naam, email: KEPT.email, onderwerp: 'vraag', bericht: 'Een vraag over de rondleiding.' });
    await waitFor(() => site.events('mail_sent').length === 2, 10_000);
    const traces = [ERASED.naam, ERASED.email, location.split('/').pop()!, KEPT.naam, KEPT.email];
    assert.equal((await holding(dir, traces)).length > 1, true, 'before: the database and the e-mail files hold them');

    // The job as the server runs it, 31 days on.
    const { stream, lines } = logCollector();
    const run = startRetention({ storage: site.temp.storage, mailCopies: createMailTransport(undefined, site.temp.mailDir), tables: retained(30), logger: pino({ level: 'debug' }, stream), metrics: createMetrics(), now: () => Date.now() + 31 * DAY_MS });
    await run.firstRun;
    await run.stop();
    const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.event === 'retention_run');
    assert.deepEqual([line?.registrations, line?.contact_messages, line?.mailFiles], [1, 1, 2]);
    assert.deepEqual(await holding(dir, traces), [], 'nothing of either person in any file');
  });

  it("a retention run after a rate limit's window has ended leaves no client address in the database's files", async (t) => {
    const site = await serverWith(t, { FORM_RATE_LIMIT: '100/1s' });
    const dir = dirname(site.temp.file);
    const from = '127.42.43.44';
    assert.equal((await postForm(site.app, '/aanmelden', KEPT, await openForm(site.app, '/aanmelden', from))).status, 303);
    assert.ok((await holding(dir, [from])).length > 0, 'before: the counter is kept under the address');
    // Once the 1 s window has ended, the job's deletion takes the counter, and the WAL with it.
    await waitFor(async () => {
      await site.temp.storage.deleteExpired(everyTable(new Date(0)), new Date(0));
      return (await holding(dir, [from])).length === 0;
    }, 10_000);
  });

  it('an e-mail being written while its person erases the registration leaves no file', async () => {
    const temp = await tempStorage();
    const { stream, lines } = logCollector();
    // The erasure comes between the reading of the letter's row and the file's writing.
    const storage: Storage = {
      ...temp.storage,
      find: async (table, id) => {
        const row = await temp.storage.find(table, id);
        await temp.storage.erase(table, id);
        return row;
      },
    };
    await registrations(temp.storage).save('0b0e6e1c-2222-4222-8222-000000000001', { ...REGISTRATION, naam: ERASED.naam, email: ERASED.email });
    const mailer = startMailer({ storage, transport: createMailTransport(undefined, temp.mailDir), letter: letters(storage, 'http://127.0.0.1'), from: 'noreply@eiland.example', retryMs: 1000, maxAttempts: 3, logger: pino(stream), metrics: createMetrics() });
    try {
      await waitFor(() => lines.some((l) => l.includes('"mail_sent"')), 10_000);
      assert.deepEqual(await readdir(temp.mailDir), [], 'the file written is gone again');
    } finally {
      await mailer.stop();
      await temp.storage.close();
      await temp.remove();
    }
  });
});

describe('the mail folder keeps nothing the erasure and the retention cannot find (docs/operations.md §11, §12)', () => {
  it('removes a file left half-written (.tmp) with its row, and an old-named file by its time', async (t) => {
    const { mkdtemp, rm, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'eiland-mail-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const about = crypto.randomUUID();
    const other = crypto.randomUUID();
    const old = new Date(Date.now() - 400 * DAY_MS).toISOString().replace(/[:.]/g, '-');
    const now = new Date().toISOString().replace(/[:.]/g, '-');
    const files = {
      halfWritten: `${now}-${about}-${crypto.randomUUID()}.eml.tmp`,
      written: `${now}-${about}-${crypto.randomUUID()}.eml`,
      others: `${now}-${other}-${crypto.randomUUID()}.eml`,
      firstMailbox: `${old}-${crypto.randomUUID()}.eml`,
      oldHalfWritten: `${old}-${other}-${crypto.randomUUID()}.eml.tmp`,
    };
    for (const name of Object.values(files)) await writeFile(join(dir, name), 'Aan: iemand@voorbeeld.nl');
    const mailbox = createMailTransport(undefined, dir);
    assert.equal(await mailbox.forget(about), 2, 'the message and its half-written copy');
    assert.equal(await mailbox.expire(new Date(Date.now() - 365 * DAY_MS)), 2, 'the old-named file and the old half-written one');
    assert.deepEqual(await readdir(dir), [files.others]);
  });
});

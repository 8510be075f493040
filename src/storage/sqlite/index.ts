/**
 * The embedded engine (docs/operations.md §3): better-sqlite3 on a file under `data/`, migrated at
 * open (src/storage/sqlite/migrations/). Synchronous calls behind the async storage API.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { guarded, RATE_LIMIT_CLEANUP_EVERY } from '../guard.js';
import { readOncePerTurn } from '../per-turn.js';
import { CONTACT_MESSAGE_COLUMNS, outboxMessage, REGISTRATION_COLUMNS, toContactMessage, toRegistration, type ContactMessageRow, type OutboxRow, type RegistrationRow } from '../row.js';
import { MAILS_PER_RECIPIENT, RECIPIENT_WINDOW_MS, recipientOf } from '../recipient.js';
import type { MailOutcome, NewContactMessage, NewRegistration, OutboxMessage, Saved, Storage } from '../types.js';
import { MIGRATIONS } from './migrations/index.js';

/** Applies the migrations not yet applied, in one immediate (write-locked) transaction. */
function migrate(db: Database.Database): void {
  db.transaction(() => {
    const applied = db.pragma('user_version', { simple: true }) as number;
    MIGRATIONS.slice(applied).forEach((sql) => db.exec(sql));
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
}

/**
 * The save of a table that keeps one row per submission key (docs/operations.md §3; a unique
 * constraint), with the outbox's message about a new row in the same transaction
 * (docs/operations.md §12), suppressed when its recipient has had its e-mails of the day; its
 * statements compiled once. Immediate: the write lock is taken first, so no other process counts
 * the same recipient's messages between this count and this insert.
 * @param table the table (a constant of this module, never input)
 * @param columns its other columns (constants of src/storage/row.ts)
 * @param mailColumn the outbox's column that refers to this table
 * @returns save(submissionKey, row): the id of the key's row, whether this call stored it, and
 *   whether its e-mail was suppressed
 */
function saveOncePerKey<T extends { email: string }>(db: Database.Database, table: string, columns: ReadonlyArray<keyof T & string>, mailColumn: string) {
  const names = ['id', 'submission_key', ...columns, 'created_at'];
  const insert = db.prepare(`INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')}) ON CONFLICT(submission_key) DO NOTHING`);
  const mailed = db.prepare<[string, string], { n: number }>("SELECT count(*) AS n FROM outbox WHERE recipient = ? AND created_at > ? AND state <> 'suppressed'");
  const enqueue = db.prepare(`INSERT INTO outbox (id, ${mailColumn}, state, recipient, due_at, created_at) VALUES (?, ?, ?, ?, ?, ?)`);
  const idByKey = db.prepare<[string], { id: string }>(`SELECT id FROM ${table} WHERE submission_key = ?`);
  const save = db.transaction((submissionKey: string, row: T): Saved => {
    const id = randomUUID();
    const now = new Date();
    if (insert.run(id, submissionKey, ...columns.map((c) => row[c]), now.toISOString()).changes !== 1) return { id: idByKey.get(submissionKey)!.id, created: false, suppressed: false };
    const recipient = recipientOf(row.email);
    const suppressed = mailed.get(recipient, new Date(now.getTime() - RECIPIENT_WINDOW_MS).toISOString())!.n >= MAILS_PER_RECIPIENT;
    enqueue.run(randomUUID(), id, suppressed ? 'suppressed' : 'pending', recipient, now.getTime(), now.toISOString());
    return { id, created: true, suppressed };
  });
  return (submissionKey: string, row: T) => save.immediate(submissionKey, row);
}

/** The outbox row a settle may change: this id, under this lease, still pending. */
const MINE = "WHERE id = ? AND lease = ? AND state = 'pending'";

/**
 * Every statement the engine runs, compiled once per open database (compiling is a visible
 * share of a request's time when done per call).
 */
function prepareStatements(db: Database.Database) {
  return {
    // One row, kept by triggers (migration 5): not a count of every registration per request.
    count: db.prepare<[], { n: number }>("SELECT value AS n FROM counts WHERE name = 'registrations'"),
    // SQLite has no array type: the interests are stored as JSON text.
    saveRegistration: saveOncePerKey<Omit<NewRegistration, 'interesses'> & { interesses: string }>(db, 'registrations', REGISTRATION_COLUMNS, 'registration_id'),
    saveContactMessage: saveOncePerKey<NewContactMessage>(db, 'contact_messages', CONTACT_MESSAGE_COLUMNS, 'contact_message_id'),
    contactById: db.prepare<[string], ContactMessageRow>('SELECT * FROM contact_messages WHERE id = ?'),
    byId: db.prepare<[string], RegistrationRow>('SELECT * FROM registrations WHERE id = ?'),
    deleteById: db.prepare<[string]>('DELETE FROM registrations WHERE id = ?'),
    // created_at is an ISO time in UTC: ordered as text as it is in time.
    expireRegistrations: db.prepare<[string]>('DELETE FROM registrations WHERE created_at < ?'),
    expireContactMessages: db.prepare<[string]>('DELETE FROM contact_messages WHERE created_at < ?'),
    // Sent and suppressed messages are kept a day, for an operator to see them (docs/operations.md §12).
    expireMail: db.prepare<[string, string]>("DELETE FROM outbox WHERE (state = 'sent' AND sent_at < ?) OR (state = 'suppressed' AND created_at < ?)"),
    // The due messages, leased and counted as tried in one statement of a write transaction.
    leaseMail: db.prepare<[string, number, number, number, number], { id: string }>(
      `UPDATE outbox SET attempts = attempts + 1, lease = ?, leased_until = ?
       WHERE id IN (SELECT id FROM outbox WHERE state = 'pending' AND due_at <= ? AND (leased_until IS NULL OR leased_until < ?) ORDER BY due_at LIMIT ?)
       RETURNING id`,
    ),
    leasedMail: db.prepare<[string], OutboxRow>(
      `SELECT o.id, o.lease, o.attempts, o.registration_id, o.contact_message_id, coalesce(r.naam, c.naam) AS naam, coalesce(r.email, c.email) AS email
       FROM outbox o LEFT JOIN registrations r ON r.id = o.registration_id LEFT JOIN contact_messages c ON c.id = o.contact_message_id WHERE o.id = ?`,
    ),
    // Each under its lease: one that ended and was taken by another is not this caller's to settle.
    mailSent: db.prepare<[string, string, string]>(`UPDATE outbox SET state = 'sent', sent_at = ?, lease = NULL, leased_until = NULL, last_error = NULL ${MINE}`),
    mailRetry: db.prepare<[number, string, string, string]>(`UPDATE outbox SET lease = NULL, leased_until = NULL, due_at = ?, last_error = ? ${MINE}`),
    mailSetAside: db.prepare<[string, string, string]>(`UPDATE outbox SET state = 'set_aside', lease = NULL, leased_until = NULL, last_error = ? ${MINE}`),
    mailReleased: db.prepare<[string, string]>(`UPDATE outbox SET lease = NULL, leased_until = NULL, attempts = attempts - 1 ${MINE}`),
    addSetting: db.prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT(name) DO NOTHING'),
    setting: db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE name = ?'),
    expireHits: db.prepare('DELETE FROM rate_limits WHERE reset_at <= ?'),
    hit: db.prepare<[string, number, number, number], { hits: number; reset_at: number }>(
      `INSERT INTO rate_limits (key, hits, reset_at) VALUES (?, 1, ?)
       ON CONFLICT(key) DO UPDATE SET
         hits = CASE WHEN reset_at <= ? THEN 1 ELSE hits + 1 END,
         reset_at = CASE WHEN reset_at <= ? THEN excluded.reset_at ELSE reset_at END
       RETURNING hits, reset_at`,
    ),
    unhit: db.prepare('UPDATE rate_limits SET hits = hits - 1 WHERE key = ? AND hits > 0'),
    resetHits: db.prepare('DELETE FROM rate_limits WHERE key = ?'),
  };
}

/**
 * Opens (creating when needed) and migrates the SQLite database.
 * @param file path of the database file, e.g. `data/eiland.db`
 * @throws StorageUnavailableError when the file cannot be opened or migrated
 */
export async function openSqlite(file: string): Promise<Storage> {
  const { db, sql } = await guarded('open', () => {
    mkdirSync(dirname(file), { recursive: true });
    const opened = new Database(file);
    try {
      opened.pragma('journal_mode = WAL'); // readers do not block the writer
      opened.pragma('busy_timeout = 5000'); // several instances may share the file
      opened.pragma('foreign_keys = ON'); // the outbox's messages go with what they are about
      opened.pragma('secure_delete = ON'); // a deleted row's bytes are overwritten, not left in free space (docs/operations.md §11)
      migrate(opened);
      return { db: opened, sql: prepareStatements(opened) };
    } catch (error) {
      opened.close(); // not left open behind the refusal
      throw error;
    }
  });
  let hits = 0;
  /**
   * After a deletion of personal rows: the WAL, which still holds their pages as they were, is
   * written into the database file (where secure_delete has zeroed them) and emptied
   * (docs/operations.md §11). A reader of another instance may keep part of it until its next
   * deletion; the answer is not waited for.
   */
  const truncateWal = (deleted: boolean): boolean => {
    if (deleted) db.pragma('wal_checkpoint(TRUNCATE)');
    return deleted;
  };
  // Forgotten by every write that may change it, and by close: later reads reject.
  const count = readOncePerTurn(() => guarded('count', () => sql.count.get()!.n));

  return {
    countRegistrations: count.read,

    saveRegistration: (submissionKey: string, r: NewRegistration) =>
      guarded('save', count.forgetting(() => sql.saveRegistration(submissionKey, { ...r, interesses: JSON.stringify(r.interesses) }))),

    findRegistration: (id: string) =>
      guarded('find', () => {
        const row = sql.byId.get(id);
        return row ? toRegistration(row) : undefined;
      }),

    deleteRegistration: (id: string) => guarded('delete', count.forgetting(() => truncateWal(sql.deleteById.run(id).changes > 0))),

    // One process writes the file at a time (an immediate transaction): no lock to take besides.
    deleteExpired: (before: Date, sentBefore: Date) =>
      guarded(
        'expire',
        count.forgetting(() => {
          let clients = 0;
          const deleted = db
            .transaction((cutoff: string, sentCutoff: string) => {
              // Ended rate-limit windows: their keys hold client addresses (docs/operations.md §11).
              clients = sql.expireHits.run(Date.now()).changes;
              return {
                registrations: sql.expireRegistrations.run(cutoff).changes,
                contactMessages: sql.expireContactMessages.run(cutoff).changes,
                mail: sql.expireMail.run(sentCutoff, sentCutoff).changes,
              };
            })
            .immediate(before.toISOString(), sentBefore.toISOString());
          truncateWal(deleted.registrations + deleted.contactMessages + clients > 0);
          return deleted;
        }),
      ),

    leaseMail: (limit: number, leaseMs: number) =>
      guarded('lease mail', () =>
        db
          .transaction(() => {
            const now = Date.now();
            return sql.leaseMail.all(randomUUID(), now + leaseMs, now, now, limit).map(({ id }) => outboxMessage(sql.leasedMail.get(id)!));
          })
          .immediate(),
      ),

    settleMail: ({ id, lease }: Pick<OutboxMessage, 'id' | 'lease'>, outcome: MailOutcome) =>
      guarded('settle mail', () => {
        if (outcome.state === 'sent') return sql.mailSent.run(new Date().toISOString(), id, lease).changes > 0;
        if (outcome.state === 'retry') return sql.mailRetry.run(Date.now() + outcome.delayMs, outcome.error, id, lease).changes > 0;
        if (outcome.state === 'set_aside') return sql.mailSetAside.run(outcome.error, id, lease).changes > 0;
        return sql.mailReleased.run(id, lease).changes > 0;
      }),

    saveContactMessage: (submissionKey: string, m: NewContactMessage) =>
      guarded('save', () => sql.saveContactMessage(submissionKey, m)),

    findContactMessage: (id: string) =>
      guarded('find', () => {
        const row = sql.contactById.get(id);
        return row ? toContactMessage(row) : undefined;
      }),

    setting: (name: string, create: () => string) =>
      guarded('setting', () => {
        sql.addSetting.run(name, create());
        return sql.setting.get(name)!.value;
      }),

    hitRateLimit: (key: string, windowMs: number) =>
      guarded('rate limit', () => {
        const now = Date.now();
        if (++hits % RATE_LIMIT_CLEANUP_EVERY === 0) sql.expireHits.run(now);
        const row = sql.hit.get(key, now + windowMs, now, now)!;
        return { hits: row.hits, resetAt: new Date(row.reset_at) };
      }),

    unhitRateLimit: (key: string) => guarded('rate limit', () => void sql.unhit.run(key)),

    resetRateLimit: (key: string) => guarded('rate limit', () => void sql.resetHits.run(key)),

    close: () => guarded('close', count.forgetting(() => void db.close())),
  };
}

/**
 * The embedded engine (docs/operations.md §3): better-sqlite3 on a file under `data/`, migrated at
 * open (src/storage/sqlite/migrations/). Synchronous calls behind the async storage API.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { guarded, RATE_LIMIT_CLEANUP_EVERY } from '../guard.js';
import { CONTACT_MESSAGE_COLUMNS, REGISTRATION_COLUMNS, toContactMessage, toRegistration, type ContactMessageRow, type RegistrationRow } from '../row.js';
import type { NewContactMessage, NewRegistration, Storage } from '../types.js';
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
 * constraint), its statements compiled once.
 * @param table the table (a constant of this module, never input)
 * @param columns its other columns (constants of src/storage/row.ts)
 * @returns save(submissionKey, row): the id of the key's row and whether this call stored it
 */
function saveOncePerKey<T extends object>(db: Database.Database, table: string, columns: ReadonlyArray<keyof T & string>) {
  const names = ['id', 'submission_key', ...columns, 'created_at'];
  const insert = db.prepare(`INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')}) ON CONFLICT(submission_key) DO NOTHING`);
  const idByKey = db.prepare<[string], { id: string }>(`SELECT id FROM ${table} WHERE submission_key = ?`);
  return (submissionKey: string, row: T): { id: string; created: boolean } => {
    const id = randomUUID();
    const { changes } = insert.run(id, submissionKey, ...columns.map((c) => row[c]), new Date().toISOString());
    return changes === 1 ? { id, created: true } : { id: idByKey.get(submissionKey)!.id, created: false };
  };
}

/**
 * Every statement the engine runs, compiled once per open database (compiling is a visible
 * share of a request's time when done per call).
 */
function prepareStatements(db: Database.Database) {
  return {
    count: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM registrations'),
    // SQLite has no array type: the interests are stored as JSON text.
    saveRegistration: saveOncePerKey<Omit<NewRegistration, 'interesses'> & { interesses: string }>(db, 'registrations', REGISTRATION_COLUMNS),
    saveContactMessage: saveOncePerKey<NewContactMessage>(db, 'contact_messages', CONTACT_MESSAGE_COLUMNS),
    contactById: db.prepare<[string], ContactMessageRow>('SELECT * FROM contact_messages WHERE id = ?'),
    byId: db.prepare<[string], RegistrationRow>('SELECT * FROM registrations WHERE id = ?'),
    deleteById: db.prepare<[string]>('DELETE FROM registrations WHERE id = ?'),
    // created_at is an ISO time in UTC: ordered as text as it is in time.
    expireRegistrations: db.prepare<[string]>('DELETE FROM registrations WHERE created_at < ?'),
    expireContactMessages: db.prepare<[string]>('DELETE FROM contact_messages WHERE created_at < ?'),
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
      migrate(opened);
      return { db: opened, sql: prepareStatements(opened) };
    } catch (error) {
      opened.close(); // not left open behind the refusal
      throw error;
    }
  });
  let hits = 0;

  return {
    countRegistrations: () => guarded('count', () => sql.count.get()!.n),

    saveRegistration: (submissionKey: string, r: NewRegistration) =>
      guarded('save', () => sql.saveRegistration(submissionKey, { ...r, interesses: JSON.stringify(r.interesses) })),

    findRegistration: (id: string) =>
      guarded('find', () => {
        const row = sql.byId.get(id);
        return row ? toRegistration(row) : undefined;
      }),

    deleteRegistration: (id: string) => guarded('delete', () => sql.deleteById.run(id).changes > 0),

    // One process writes the file at a time (an immediate transaction): no lock to take besides.
    deleteExpired: (before: Date) =>
      guarded('expire', () =>
        db
          .transaction((cutoff: string) => ({ registrations: sql.expireRegistrations.run(cutoff).changes, contactMessages: sql.expireContactMessages.run(cutoff).changes }))
          .immediate(before.toISOString()),
      ),

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

    close: () => guarded('close', () => void db.close()),
  };
}

/**
 * The embedded engine (product.md §12): better-sqlite3 on a file under `data/`, migrated at
 * open (src/storage/sqlite/migrations/). Synchronous calls behind the async storage API.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { guarded, RATE_LIMIT_CLEANUP_EVERY } from '../guard.js';
import { toRegistration, type RegistrationRow } from '../row.js';
import type { NewRegistration, Storage } from '../types.js';
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
 * Opens (creating when needed) and migrates the SQLite database.
 * @param file path of the database file, e.g. `data/eiland.db`
 * @throws StorageUnavailableError when the file cannot be opened or migrated
 */
export async function openSqlite(file: string): Promise<Storage> {
  const db = await guarded('open', () => {
    mkdirSync(dirname(file), { recursive: true });
    const opened = new Database(file);
    opened.pragma('journal_mode = WAL'); // readers do not block the writer
    opened.pragma('busy_timeout = 5000'); // several instances may share the file
    migrate(opened);
    return opened;
  });
  let hits = 0;

  return {
    countRegistrations: () => guarded('count', () => (db.prepare('SELECT count(*) AS n FROM registrations').get() as { n: number }).n),

    saveRegistration: (submissionKey: string, r: NewRegistration) =>
      guarded('save', () => {
        const insert = db.prepare(
          `INSERT INTO registrations (id, submission_key, naam, email, website, referentie, gebruikersnaam, landcode, interesses, personen, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(submission_key) DO NOTHING`,
        );
        const id = randomUUID();
        const { changes } = insert.run(id, submissionKey, r.naam, r.email, r.website, r.referentie, r.gebruikersnaam, r.landcode, JSON.stringify(r.interesses), r.personen, new Date().toISOString());
        if (changes === 1) return { id, created: true };
        const existing = db.prepare('SELECT id FROM registrations WHERE submission_key = ?').get(submissionKey) as { id: string };
        return { id: existing.id, created: false };
      }),

    findRegistration: (id: string) =>
      guarded('find', () => {
        const row = db.prepare('SELECT * FROM registrations WHERE id = ?').get(id) as RegistrationRow | undefined;
        return row ? toRegistration(row) : undefined;
      }),

    setting: (name: string, create: () => string) =>
      guarded('setting', () => {
        db.prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT(name) DO NOTHING').run(name, create());
        return (db.prepare('SELECT value FROM settings WHERE name = ?').get(name) as { value: string }).value;
      }),

    hitRateLimit: (key: string, windowMs: number) =>
      guarded('rate limit', () => {
        const now = Date.now();
        if (++hits % RATE_LIMIT_CLEANUP_EVERY === 0) db.prepare('DELETE FROM rate_limits WHERE reset_at <= ?').run(now);
        const row = db
          .prepare(
            `INSERT INTO rate_limits (key, hits, reset_at) VALUES (?, 1, ?)
             ON CONFLICT(key) DO UPDATE SET
               hits = CASE WHEN reset_at <= ? THEN 1 ELSE hits + 1 END,
               reset_at = CASE WHEN reset_at <= ? THEN excluded.reset_at ELSE reset_at END
             RETURNING hits, reset_at`,
          )
          .get(key, now + windowMs, now, now) as { hits: number; reset_at: number };
        return { hits: row.hits, resetAt: new Date(row.reset_at) };
      }),

    unhitRateLimit: (key: string) => guarded('rate limit', () => void db.prepare('UPDATE rate_limits SET hits = hits - 1 WHERE key = ? AND hits > 0').run(key)),

    resetRateLimit: (key: string) => guarded('rate limit', () => void db.prepare('DELETE FROM rate_limits WHERE key = ?').run(key)),

    close: () => guarded('close', () => void db.close()),
  };
}

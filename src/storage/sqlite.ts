/**
 * The embedded engine (product.md §12): better-sqlite3 on a file under `data/`,
 * migrated at open. Synchronous calls behind the async storage API.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { StorageUnavailableError, type NewRegistration, type Registration, type Storage } from './types.js';

/** Migrations, applied in order; `PRAGMA user_version` counts the applied ones. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE registrations (
     id TEXT PRIMARY KEY,
     submission_key TEXT NOT NULL UNIQUE,
     naam TEXT NOT NULL,
     email TEXT NOT NULL,
     website TEXT,
     referentie TEXT,
     gebruikersnaam TEXT NOT NULL,
     landcode TEXT NOT NULL,
     interesses TEXT NOT NULL,
     personen INTEGER NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);`,
];

interface Row {
  id: string;
  naam: string;
  email: string;
  website: string | null;
  referentie: string | null;
  gebruikersnaam: string;
  landcode: string;
  interesses: string;
  personen: number;
  created_at: string;
}

function migrate(db: Database.Database): void {
  const applied = db.pragma('user_version', { simple: true }) as number;
  db.transaction(() => {
    MIGRATIONS.slice(applied).forEach((sql) => db.exec(sql));
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
}

async function guarded<T>(operation: string, work: () => T): Promise<T> {
  try {
    return work();
  } catch (error) {
    throw new StorageUnavailableError(operation, error);
  }
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

  return {
    countRegistrations: () =>
      guarded('count', () => (db.prepare('SELECT count(*) AS n FROM registrations').get() as { n: number }).n),

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
        const row = db.prepare('SELECT * FROM registrations WHERE id = ?').get(id) as Row | undefined;
        if (!row) return undefined;
        const registration: Registration = {
          id: row.id,
          naam: row.naam,
          email: row.email,
          website: row.website,
          referentie: row.referentie,
          gebruikersnaam: row.gebruikersnaam,
          landcode: row.landcode,
          interesses: JSON.parse(row.interesses) as string[],
          personen: row.personen,
          createdAt: row.created_at,
        };
        return registration;
      }),

    setting: (name: string, create: () => string) =>
      guarded('setting', () => {
        db.prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT(name) DO NOTHING').run(name, create());
        return (db.prepare('SELECT value FROM settings WHERE name = ?').get(name) as { value: string }).value;
      }),

    close: () => guarded('close', () => void db.close()),
  };
}

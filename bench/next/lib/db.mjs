/**
 * Eiland's own storage module (src/storage/index.ts) on Eiland's SQLite file (server
 * only): the same connection set-up (WAL, busy timeout, migrations at open, so a missing
 * file is created as Eiland creates it), the same count per request and the same insert.
 * better-sqlite3 comes from the repository root's node_modules; next.config keeps it external.
 */
import { resolve } from 'node:path';
import { openSqlite } from '../../../src/storage/index.js';

/**
 * What Eiland's registration form keeps (`keep.kept` of src/forms/registration.ts): its table, its
 * e-mail, no notification, the columns beheer searches; a list as JSON text.
 */
const KEPT = { table: 'registrations', kind: 'registration', mailed: true, notifies: false, searched: ['naam', 'email'] };

/** EILAND_DB_FILE, else `../../data/eiland.db` from the folder `next start` runs in (bench/next). */
export const DB_FILE = process.env.EILAND_DB_FILE || resolve(process.cwd(), '../../data/eiland.db');

let storage;

/** The storage, opened once per process (again after a failed open). */
export function openStorage() {
  storage ??= openSqlite(DB_FILE).catch((error) => {
    storage = undefined;
    throw error;
  });
  return storage;
}

/**
 * The number of registrations, as Eiland's start page loader reads it.
 * @returns the count, or null when the database cannot be read (Eiland shows a sentence for that)
 */
export async function registrationCount() {
  try {
    return await (await openStorage()).countRegistrations();
  } catch {
    return null;
  }
}

/**
 * Stores a registration once per submission key, with its e-mail in the outbox, as Eiland's form
 * does (the same transaction, through the same module).
 * @param {string} submissionKey the form's per-render UUID
 * @param {object} registration validated, transformed values, an empty optional one null
 * @returns {Promise<{ id: string, created: boolean }>}
 */
export async function saveRegistration(submissionKey, registration) {
  return (await openStorage()).save(KEPT, submissionKey, { ...registration, interesses: JSON.stringify(registration.interesses) });
}

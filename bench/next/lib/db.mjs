/**
 * Eiland's own storage module (src/storage/sqlite/index.ts) on Eiland's SQLite file (server
 * only): the same connection set-up (WAL, busy timeout, migrations at open, so a missing
 * file is created as Eiland creates it), the same count per request and the same insert.
 * better-sqlite3 comes from the repository root's node_modules; next.config keeps it external.
 */
import { resolve } from 'node:path';
import { openSqlite } from '../../../src/storage/sqlite/index.js';

/** EILAND_DB_FILE, else `../../data/eiland.db` from the folder `next start` runs in (bench/next). */
export const DB_FILE = process.env.EILAND_DB_FILE || resolve(process.cwd(), '../../data/eiland.db');

let storage;

/** The storage, opened once per process (again after a failed open). */
function open() {
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
    return await (await open()).countRegistrations();
  } catch {
    return null;
  }
}

/**
 * Stores a registration once per submission key (Eiland's saveRegistration).
 * @param {string} submissionKey the form's per-render UUID
 * @param {object} registration validated, transformed values (NewRegistration)
 * @returns {Promise<{ id: string, created: boolean }>}
 */
export async function saveRegistration(submissionKey, registration) {
  return (await open()).saveRegistration(submissionKey, registration);
}

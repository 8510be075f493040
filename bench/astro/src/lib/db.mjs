/**
 * Eiland's own storage module (src/storage/index.ts) on Eiland's SQLite file (server
 * only), opened once per process: the same connection set-up and the same count per request as
 * Eiland and the Next app. better-sqlite3 comes from the repository root's node_modules.
 */
import { resolve } from 'node:path';
import { openSqlite } from '../../../../src/storage/index.js';

/** EILAND_DB_FILE, else `../../data/eiland.db` from the folder the server runs in (bench/astro). */
const DB_FILE = process.env.EILAND_DB_FILE || resolve(process.cwd(), '../../data/eiland.db');

let storage;

/**
 * The number of registrations, as Eiland's start page loader reads it.
 * @returns the count, or null when the database cannot be read (Eiland shows a sentence for that)
 */
export async function registrationCount() {
  storage ??= openSqlite(DB_FILE).catch((error) => {
    storage = undefined;
    throw error;
  });
  try {
    return await (await storage).countRegistrations();
  } catch {
    return null;
  }
}

/**
 * Storage for the apps a test starts: a throw-away SQLite database, the seam that replaces the
 * registration count (docs/streaming.md §1), and a registration to store.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../../src/storage/sqlite/index.js';
import type { NewRegistration, Storage } from '../../src/storage/types.js';

/** A registration as the form hands it to storage. */
export const REGISTRATION: NewRegistration = {
  naam: 'Anna',
  email: 'anna@voorbeeld.nl',
  website: null,
  referentie: null,
  gebruikersnaam: 'anna',
  landcode: 'NL',
  interesses: ['sport'],
  personen: 1,
};

/**
 * A temporary SQLite database for one test app (docs/operations.md §3).
 * @returns the open storage, its file, a folder beside it for the e-mails' files (a server's
 *   `mailDir`), and `remove()`, which deletes its folder (close the storage first)
 */
export async function tempStorage(): Promise<{ storage: Storage; file: string; mailDir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'eiland-db-'));
  const file = join(dir, 'eiland.db');
  const storage = await openSqlite(file);
  return { storage, file, mailDir: join(dir, 'mail'), remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Storage whose registration count comes from `count`: the slow or failing loader of the
 * streaming tests (docs/streaming.md §1).
 * @param storage the storage everything else comes from
 * @param count replaces `countRegistrations`
 */
export function withCount(storage: Storage, count: () => Promise<number>): Storage {
  return { ...storage, countRegistrations: count };
}

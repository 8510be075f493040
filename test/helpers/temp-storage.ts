/**
 * Storage for the apps a test starts: a throw-away SQLite database, the seam that replaces the
 * registration count (docs/streaming.md §1), and a registration to store.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formMigrations, retained } from '../../src/forms/index.js';
import { openSqlite, type StorageOptions } from '../../src/storage/index.js';
import type { Registration } from '../../src/forms/registration.js';
import type { Storage } from '../../src/storage/types.js';
import { FORMS } from '../fixtures/forms.js';

/** A registration as the form hands it to storage. */
export const REGISTRATION: Omit<Registration, 'id' | 'createdAt'> = {
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
 * The retention's cut-offs with one time for every keeping form's table (docs/operations.md §11),
 * the test app's forms'.
 * @param before rows stored earlier are deleted
 */
export function everyTable(before: Date): Array<{ table: string; before: Date }> {
  return retained(0, FORMS).map(({ table }) => ({ table, before }));
}

/** What `deleteExpired` counts when it deletes no row: 0 for every keeping form's table. */
export const NO_ROWS: Readonly<Record<string, number>> = Object.fromEntries(retained(0, FORMS).map(({ table }) => [table, 0]));

/** The migrations of the test app's forms (the test form makes its own table). */
export const TEST_MIGRATIONS = formMigrations(FORMS);

/**
 * A temporary SQLite database for one test app (docs/operations.md §3), with the test app's forms' tables.
 * @param options `notify`: the organisation's notifications enqueued, as with `NOTIFY_TO` (docs/beheer.md §5)
 * @returns the open storage, its file, a folder beside it for the e-mails' files (a server's
 *   `mailDir`), and `remove()`, which deletes its folder (close the storage first)
 */
export async function tempStorage(options: StorageOptions = {}): Promise<{ storage: Storage; file: string; mailDir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'eiland-db-'));
  const file = join(dir, 'eiland.db');
  const storage = await openSqlite(file, TEST_MIGRATIONS, options);
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

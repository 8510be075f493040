/**
 * Storage for the apps a test starts: a throw-away SQLite database, and the seam that replaces
 * the registration count (docs/streaming.md §1).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../../src/storage/sqlite/index.js';
import type { Storage } from '../../src/storage/types.js';

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

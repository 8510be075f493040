/**
 * Opens the configured storage engine (product.md §12).
 */
import { join } from 'node:path';
import type { Config } from '../config.js';
import { PROJECT_ROOT } from '../project-root.js';
import { openSqlite } from './sqlite.js';
import type { Storage } from './types.js';

/** Default embedded database file: `data/eiland.db` in the project. */
export const DEFAULT_DATABASE_FILE = join(PROJECT_ROOT, 'data', 'eiland.db');

/**
 * Opens storage for a configuration.
 * @param config `databaseUrl` selects PostgreSQL; absent, the embedded SQLite file
 * @param file the SQLite file (tests pass a temporary one)
 * @throws Error when `DATABASE_URL` is set: the PostgreSQL engine is not built yet
 * @throws StorageUnavailableError when the database cannot be opened
 */
export async function openStorage(config: Pick<Config, 'databaseUrl'>, file = DEFAULT_DATABASE_FILE): Promise<Storage> {
  if (config.databaseUrl !== undefined) {
    throw new Error('DATABASE_URL is set, but this version of Eiland only has the embedded SQLite engine: unset DATABASE_URL');
  }
  return openSqlite(file);
}

export * from './types.js';

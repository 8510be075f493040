/**
 * Opens the configured storage engine (docs/operations.md §3): embedded SQLite without `DATABASE_URL`,
 * PostgreSQL with it. Engine code lives in its own folder (sqlite/, postgres/).
 */
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { PROJECT_ROOT } from '../project-root.js';
import { openSqlite } from './sqlite/index.js';
import type { Storage } from './types.js';

/** Default embedded database file: `data/eiland.db` in the project. */
export const DEFAULT_DATABASE_FILE = join(PROJECT_ROOT, 'data', 'eiland.db');

/**
 * Opens storage for a configuration.
 * @param config `databaseUrl` selects PostgreSQL (pool of `databasePoolSize`); absent, the embedded SQLite file
 * @param options `file`: the SQLite file (tests pass a temporary one); `logger`: for pool errors
 * @throws StorageUnavailableError when the database cannot be opened or migrated
 */
export async function openStorage(config: Pick<Config, 'databaseUrl' | 'databasePoolSize'>, options: { file?: string; logger?: Logger } = {}): Promise<Storage> {
  if (config.databaseUrl !== undefined) {
    // Loaded only when configured: the embedded default never loads the pg driver.
    const { openPostgres } = await import('./postgres/index.js');
    return openPostgres({
      url: config.databaseUrl,
      poolSize: config.databasePoolSize,
      onPoolError: (error) => options.logger?.warn({ event: 'database_connection_lost', err: error }, 'database_connection_lost'),
    });
  }
  return openSqlite(options.file ?? DEFAULT_DATABASE_FILE);
}

export * from './types.js';

/** The SQLite migrations in order; `PRAGMA user_version` counts those applied. */
import m0001 from './0001-registrations.js';
import m0002 from './0002-rate-limits.js';

export const MIGRATIONS: readonly string[] = [m0001, m0002];

/**
 * The one list of migrations (docs/operations.md §3), applied at start-up by Kysely's `Migrator`
 * and recorded in `kysely_migration`. Migrations 1–7 were written per engine (their SQL in
 * sqlite/ and postgres/); later ones are written once. A database migrated before the list
 * (SQLite's `user_version`, PostgreSQL's `schema_migrations`) has what it applied recorded first.
 */
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../engine.js';
import type { Tables } from '../tables.js';
import * as outboxKinds from './0008-outbox-kinds.js';
import * as beheer from './0009-beheer.js';
import * as recipientSends from './0010-recipient-sends.js';
import { MIGRATIONS as POSTGRES } from './postgres/index.js';
import { MIGRATIONS as SQLITE } from './sqlite/index.js';
import type { MigrationUp } from './submissions.js';

/** The names of the migrations written per engine, in order (SQLite's 7th is its count's move to PostgreSQL's table). */
const PER_ENGINE = ['0001-registrations', '0002-rate-limits', '0003-contact-messages', '0004-outbox', '0005-registration-count', '0006-outbox-recipients', '0007-count-shards'];

/** The migrations after those written per engine, by name. */
const SHARED: Record<string, MigrationUp> = { '0008-outbox-kinds': outboxKinds.up, '0009-beheer': beheer.up, '0010-recipient-sends': recipientSends.up };

/** The name of every migration of the list, in order (the forms that make their own tables add theirs). */
export const MIGRATION_NAMES: readonly string[] = [...PER_ENGINE, ...Object.keys(SHARED)];

/**
 * Every migration of an engine, by name (Kysely applies them in the names' order).
 * @param forms the forms' own migrations (their tables), by name
 * @throws TypeError when a form's migration has the name of one of the list
 */
export function migrationsOf(engine: Engine, forms: Readonly<Record<string, MigrationUp>> = {}): Record<string, Migration> {
  const own = engine.name === 'sqlite' ? SQLITE : POSTGRES;
  const list: Record<string, Migration> = {};
  PER_ENGINE.forEach((name, index) => (list[name] = { up: (db) => engine.exec(db as Kysely<Tables>, own[index]!) }));
  for (const [name, up] of Object.entries(SHARED)) list[name] = { up: (db) => up(engine, db) };
  for (const [name, up] of Object.entries(forms)) {
    if (list[name]) throw new TypeError(`A form's migration is named "${name}", as one of the list is`);
    list[name] = { up: (db) => up(engine, db) };
  }
  return list;
}

/** The advisory lock of migrating and recording the old migrations ("eiland" in ASCII). */
export const MIGRATION_LOCK = 0x65696c616e64;

/**
 * Records the migrations a database applied before `kysely_migration` existed, once.
 * @param db a transaction holding the migration lock
 */
async function recordEarlier(engine: Engine, db: Kysely<Tables>): Promise<void> {
  const tables = new Set((await db.introspection.getTables({ withInternalKyselyTables: true })).map((table) => table.name));
  if (tables.has('kysely_migration')) return;
  const applied =
    engine.name === 'sqlite'
      ? (await sql<{ user_version: number }>`PRAGMA user_version`.execute(db)).rows[0]!.user_version
      : tables.has('schema_migrations')
        ? Number((await sql<{ version: number | null }>`SELECT max(version) AS version FROM schema_migrations`.execute(db)).rows[0]!.version ?? 0)
        : 0;
  if (applied === 0) return;
  await db.schema.createTable('kysely_migration').addColumn('name', 'varchar(255)', (c) => c.notNull().primaryKey()).addColumn('timestamp', 'varchar(255)', (c) => c.notNull()).execute();
  const timestamp = new Date().toISOString();
  await (db as Kysely<{ kysely_migration: { name: string; timestamp: string } }>)
    .insertInto('kysely_migration')
    .values(PER_ENGINE.slice(0, applied).map((name) => ({ name, timestamp })))
    .execute();
}

/**
 * Applies the migrations not yet applied, the forms' own (`forms`, by name) in their order among
 * the list's: on PostgreSQL under an advisory lock (instances starting
 * together migrate once), on SQLite in one immediate transaction (the file's write lock).
 * @throws the migration's error (the caller turns it into StorageUnavailableError)
 */
export async function migrate(engine: Engine, forms: Readonly<Record<string, MigrationUp>> = {}): Promise<void> {
  const provider = { getMigrations: async () => migrationsOf(engine, forms) };
  const run = async (db: Kysely<Tables>, disableTransactions: boolean) => {
    const { error } = await new Migrator({ db, provider, disableTransactions }).migrateToLatest();
    if (error) throw error;
  };
  if (engine.name === 'sqlite') {
    return engine.writing(async (db) => {
      await recordEarlier(engine, db);
      await run(db, true);
    });
  }
  await engine.writing(async (db) => {
    await engine.lock(db, MIGRATION_LOCK, undefined, true);
    await recordEarlier(engine, db);
  });
  await run(engine.db, false);
}

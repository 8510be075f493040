/**
 * The two engines behind one Kysely instance (docs/operations.md §3): what is written once for
 * both lives in src/storage/index.ts; here is only what truly differs — opening, the database's
 * clock, the write transaction, the locks and the WAL (each such place named in
 * docs/operations.md §3).
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, SqliteDialect, type DatabaseConnection, type Driver, type RawBuilder } from 'kysely';
import { fold } from './fold.js';
import type { Tables } from './tables.js';

/** What differs between the engines, for the queries written once. */
export interface Engine {
  name: 'sqlite' | 'postgres';
  db: Kysely<Tables>;
  /** The database's time now, in ms since the epoch: the one clock of leases and delays. */
  nowMs: RawBuilder<number>;
  /** The type of a UUID column: `uuid` on PostgreSQL, text on SQLite. */
  uuid: 'uuid' | 'text';
  /**
   * Runs work in one transaction that holds the write lock from its start (SQLite: `BEGIN
   * IMMEDIATE`, so no other process writes between its reads and its writes; PostgreSQL: a
   * transaction whose locks are taken by the work). Committed when the work resolves, rolled back
   * when it throws (the error goes on).
   */
  writing<T>(work: (trx: Kysely<Tables>) => Promise<T>): Promise<T>;
  /**
   * Holds, to the end of the transaction, a lock of a class and a key (PostgreSQL's
   * `pg_advisory_xact_lock`; on SQLite the immediate transaction holds the only write lock).
   * @param wait false: only try, and tell whether it was had
   */
  lock(trx: Kysely<Tables>, lock: number, key: string | undefined, wait: boolean): Promise<boolean>;
  /**
   * After a deletion of personal rows: SQLite writes the WAL, which still holds their pages as they
   * were, into the database file (where `secure_delete` has zeroed them) and empties it
   * (docs/operations.md §11). PostgreSQL: nothing (its VACUUM, docs/operations.md §11).
   */
  forgetDeleted(): Promise<void>;
  /** Runs SQL of several statements (a migration written per engine). */
  exec(trx: Kysely<Tables>, text: string): Promise<void>;
  /** Whether a query may take `FOR UPDATE SKIP LOCKED` (PostgreSQL) rather than rely on the immediate transaction. */
  rowLocks: boolean;
  /** A text column as beheer's search compares it: lower case, without accents, as `fold` of src/storage/staff.ts (docs/beheer.md §4). */
  fold(column: RawBuilder<unknown> | ReturnType<typeof sql.ref>): RawBuilder<string>;
  /** Whether a text column holds a text, as a plain substring search: cheaper than `LIKE`, which also folds case and reads patterns. */
  contains(column: ReturnType<typeof sql.ref>, text: string): RawBuilder<boolean>;
}

/** The accented letters PostgreSQL's search folds (after `lower`), and what each becomes. */
const ACCENTED = 'àáâãäåāăąçćčďèéêëēėęěìíîïīįłñńňòóôõöøōőŕřśšşťùúûüūůűųýÿźżž';
const PLAIN = 'aaaaaaaaacccdeeeeeeeeiiiiiilnnnoooooooorrssstuuuuuuuuyyzzz';

/** Statements kept compiled per database: far more than the queries there are (some 40). */
const STATEMENTS_KEPT = 500;

/**
 * A better-sqlite3 database whose statements are compiled once: Kysely prepares each query it
 * runs, and compiling is a visible share of a request's time (docs/performance.md §4).
 */
function keepingStatements(db: Database.Database) {
  const kept = new Map<string, Database.Statement>();
  return {
    close: () => db.close(),
    prepare(text: string) {
      let statement = kept.get(text);
      if (statement === undefined) {
        statement = db.prepare(text);
        if (kept.size >= STATEMENTS_KEPT) kept.delete(kept.keys().next().value!);
        kept.set(text, statement);
      }
      return statement;
    },
  };
}

/** The turns of the databases open in this process, by file: one holder at a time (see {@link takingTurns}). */
const turns = new Map<string, Promise<void>>();

/**
 * Kysely's SQLite driver, taking its turn with every other database open on the same file in this
 * process. better-sqlite3 waits for a lock synchronously (the busy time-out stops the thread), so
 * a second instance in one process (the tests' two instances) must not start a statement while
 * the first holds the write lock across its transaction's awaits, or neither could go on.
 */
class TakingTurns implements Driver {
  /** The ends of the turns asked for, in order: turns are given and ended in that order. */
  readonly #ends: Array<() => void> = [];
  constructor(
    private readonly driver: Driver,
    private readonly file: string,
  ) {}
  init = () => this.driver.init();
  async acquireConnection(): Promise<DatabaseConnection> {
    const before = turns.get(this.file) ?? Promise.resolve();
    const mine = new Promise<void>((end) => this.#ends.push(end));
    turns.set(this.file, before.then(() => mine));
    await before;
    return this.driver.acquireConnection();
  }
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await this.driver.releaseConnection(connection);
    this.#ends.shift()!();
  }
  beginTransaction: Driver['beginTransaction'] = (connection, settings) => this.driver.beginTransaction(connection, settings);
  commitTransaction: Driver['commitTransaction'] = (connection) => this.driver.commitTransaction(connection);
  rollbackTransaction: Driver['rollbackTransaction'] = (connection) => this.driver.rollbackTransaction(connection);
  destroy = () => this.driver.destroy();
}

/** The SQLite dialect whose driver takes turns per file (see {@link TakingTurns}). */
class TurnTakingDialect extends SqliteDialect {
  constructor(
    config: ConstructorParameters<typeof SqliteDialect>[0],
    private readonly file: string,
  ) {
    super(config);
  }
  override createDriver(): Driver {
    return new TakingTurns(super.createDriver(), this.file);
  }
}

/**
 * Opens the SQLite file (creating it and its folder) with the settings every instance uses.
 * @param file e.g. `data/eiland.db`
 */
export function sqliteEngine(file: string): Engine {
  mkdirSync(dirname(file), { recursive: true });
  const raw = new Database(file);
  try {
    raw.pragma('journal_mode = WAL'); // readers do not block the writer
    raw.pragma('busy_timeout = 5000'); // several instances may share the file
    raw.pragma('secure_delete = ON'); // a deleted row's bytes are overwritten, not left in free space (docs/operations.md §11)
    raw.function('eiland_fold', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? fold(text) : null));
  } catch (error) {
    raw.close();
    throw error;
  }
  const db = new Kysely<Tables>({ dialect: new TurnTakingDialect({ database: keepingStatements(raw) }, resolve(file)) });
  return {
    name: 'sqlite',
    db,
    nowMs: sql<number>`CAST(unixepoch('subsec') * 1000 AS INTEGER)`,
    uuid: 'text',
    rowLocks: false,
    // Kysely's SQLite transaction begins deferred; the single connection is held throughout.
    writing: (work) =>
      db.connection().execute(async (connection) => {
        await sql`BEGIN IMMEDIATE`.execute(connection);
        try {
          const result = await work(connection);
          await sql`COMMIT`.execute(connection);
          return result;
        } catch (error) {
          if (raw.inTransaction) await sql`ROLLBACK`.execute(connection);
          throw error;
        }
      }),
    lock: async () => true,
    forgetDeleted: async () => void raw.pragma('wal_checkpoint(TRUNCATE)'),
    exec: async (_trx, text) => void raw.exec(text),
    fold: (column) => sql<string>`eiland_fold(${column})`,
    contains: (column, text) => sql<boolean>`instr(${column}, ${text}) > 0`,
  };
}

/** Options of {@link postgresEngine}. */
export interface PostgresOptions {
  /** `postgres://…` */
  url: string;
  /** Connections in the pool (`DATABASE_POOL_SIZE`). */
  poolSize: number;
  /** Pool errors of idle connections (the server restarted, the network dropped): logged, never a crash. */
  onPoolError?(error: Error): void;
}

/** PostgreSQL's `bigint` (times in ms, counts) as a JS number: exact below 2^53. */
const BIGINT_OID = 20;

/**
 * Connects a pool to PostgreSQL (the `pg` driver, loaded only when configured).
 * @throws when the driver cannot be loaded
 */
export async function postgresEngine({ url, poolSize, onPoolError }: PostgresOptions): Promise<Engine> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // A request waits at most this long for a connection, then gets the 503 page.
    connectionTimeoutMillis: 5000,
    statement_timeout: 10_000,
    idleTimeoutMillis: 30_000,
    types: { getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === BIGINT_OID ? Number : pg.types.getTypeParser(oid, format))) as typeof pg.types.getTypeParser },
  });
  pool.on('error', (error) => onPoolError?.(error));
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  return {
    name: 'postgres',
    db,
    nowMs: sql<number>`(extract(epoch from now()) * 1000)::bigint`,
    uuid: 'uuid',
    rowLocks: true,
    writing: (work) => db.transaction().execute(work),
    // Its own statement: a statement's snapshot is taken as it begins, so what is read under the lock begins after it is held.
    lock: async (trx, lock, key, wait) => {
      const keyed = key === undefined ? sql`${lock}` : sql`${lock}, hashtext(${key})`;
      if (wait) {
        await sql`SELECT pg_advisory_xact_lock(${keyed})`.execute(trx);
        return true;
      }
      return (await sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(${keyed}) AS locked`.execute(trx)).rows[0]!.locked;
    },
    forgetDeleted: async () => undefined,
    exec: async (trx, text) => void (await sql.raw(text).execute(trx)),
    fold: (column) => sql<string>`translate(lower(${column}), ${ACCENTED}, ${PLAIN})`,
    contains: (column, text) => sql<boolean>`strpos(${column}, ${text}) > 0`,
  };
}

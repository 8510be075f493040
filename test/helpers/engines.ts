/**
 * Both storage engines as the contract tests open them (docs/operations.md §3): a fresh, empty
 * store of each, with the test app's forms' tables, SQLite in a temporary folder and PostgreSQL as a new database of the test
 * cluster.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openPostgres, openSqlite } from '../../src/storage/index.js';
import type { Storage } from '../../src/storage/types.js';
import { usePostgres, type TestPostgres } from './postgres.js';
import { TEST_MIGRATIONS } from './temp-storage.js';

/** A fresh, empty store of one engine, and how to open its database again. */
export type Engine = [name: string, open: () => Promise<OpenedEngine>];

/** A store opened by {@link useEngines}. */
interface OpenedEngine {
  storage: Storage;
  /** Opens the same database again (another instance on it). */
  reopen(): Promise<Storage>;
  /** Makes every insert into the outbox fail from now on, from a connection of its own. */
  refuseMail(): Promise<void>;
}

/**
 * The engines of the storage contract, for a test file's top level: registers the PostgreSQL
 * cluster's start and removal, and the temporary folders' removal.
 * @returns the engines, and `tempFile()`: a database path in a folder of its own (`nested/` not
 *   yet made), and the cluster
 */
export function useEngines(): { engines: Engine[]; tempFile(): Promise<string>; cluster: TestPostgres } {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
  const tempFile = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eiland-store-'));
    dirs.push(dir);
    return join(dir, 'nested', 'eiland.db');
  };
  const cluster = usePostgres();
  const engines: Engine[] = [
    [
      'SQLite',
      async () => {
        const file = await tempFile();
        const refuseMail = async () => {
          const db = new Database(file);
          db.exec("CREATE TRIGGER refuse_mail BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'refused'); END");
          db.close();
        };
        return { storage: await openSqlite(file, TEST_MIGRATIONS), reopen: () => openSqlite(file, TEST_MIGRATIONS), refuseMail };
      },
    ],
    [
      'PostgreSQL',
      async () => {
        const url = await cluster.createDatabase();
        const refuseMail = async () => {
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          await client.query('ALTER TABLE outbox ADD CONSTRAINT refused CHECK (false) NOT VALID');
          await client.end();
        };
        return { storage: await openPostgres({ url, poolSize: 4 }, TEST_MIGRATIONS), reopen: () => openPostgres({ url, poolSize: 4 }, TEST_MIGRATIONS), refuseMail };
      },
    ],
  ];
  return { engines, tempFile, cluster };
}

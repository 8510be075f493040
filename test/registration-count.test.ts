/**
 * The number of registrations (docs/operations.md §3): read from one row that triggers keep in
 * step, on both engines; it agrees with the rows after saves, repeated keys, an erasure and a
 * retention run, and a database migrated with registrations already in it starts from them. It is
 * read once per turn of the event loop, and an instance's own writes show at once.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openPostgres, openSqlite } from '../src/storage/index.js';
import { MIGRATIONS as POSTGRES_MIGRATIONS } from '../src/storage/migrations/postgres/index.js';
import { MIGRATIONS as SQLITE_MIGRATIONS } from '../src/storage/migrations/sqlite/index.js';
import { StorageUnavailableError } from '../src/storage/types.js';
import { useEngines } from './helpers/engines.js';
import { REGISTRATION, everyTable } from './helpers/temp-storage.js';
import { registrations } from '../src/forms/registration.js';

const { engines, tempFile, cluster } = useEngines();
const key = (n: number) => `0b0e6e1c-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** The migration that keeps the count, of each engine: the databases below stop just before it. */
const counted = (migrations: readonly string[]) => migrations.findIndex((sql) => sql.includes('CREATE TABLE counts'));

for (const [engine, open] of engines) {
  describe(`the number of registrations: ${engine} (docs/operations.md §3)`, () => {
    it('agrees with the rows after saves, a repeated key, an erasure and a retention run', async () => {
      const { storage } = await open();
      assert.equal(await storage.countRegistrations(), 0);
      const saved = [];
      for (let n = 1; n <= 5; n++) saved.push(await registrations(storage).save(key(n), REGISTRATION));
      await registrations(storage).save(key(1), REGISTRATION); // the same post again: not a sixth
      assert.equal(await storage.countRegistrations(), 5);
      await registrations(storage).erase(saved[0]!.id);
      await registrations(storage).erase(saved[0]!.id);
      assert.equal(await storage.countRegistrations(), 4);
      await storage.deleteExpired(everyTable(new Date(Date.now() + 60_000)), new Date(0));
      assert.equal(await storage.countRegistrations(), 0, 'a run deleting several rows at once');
      await registrations(storage).save(key(9), REGISTRATION);
      assert.equal(await storage.countRegistrations(), 1);
      await storage.close();
    });

    it("is read once per turn of the event loop: the turn's calls share it, another instance's save shows from the next turn", async () => {
      const { storage, reopen } = await open();
      const other = await reopen();
      const first = storage.countRegistrations();
      assert.equal(storage.countRegistrations(), first, 'one read for the calls of a turn');
      assert.equal(await first, 0);
      await registrations(other).save(key(1), REGISTRATION);
      await new Promise(setImmediate);
      assert.notEqual(storage.countRegistrations(), first, 'read again in a later turn');
      assert.equal(await storage.countRegistrations(), 1, "another instance's save");
      await Promise.all([other.close(), storage.close()]);
    });

    it("sees its own writes at once, within the turn, and rejects once closed", async () => {
      const { storage } = await open();
      const before = storage.countRegistrations();
      const { id } = await registrations(storage).save(key(1), REGISTRATION);
      assert.equal(await before, 0);
      assert.equal(await storage.countRegistrations(), 1, 'after a save');
      await registrations(storage).erase(id);
      assert.equal(await storage.countRegistrations(), 0, 'after an erasure');
      await registrations(storage).save(key(2), REGISTRATION);
      assert.equal(await storage.countRegistrations(), 1);
      await storage.deleteExpired(everyTable(new Date(Date.now() + 60_000)), new Date(0));
      assert.equal(await storage.countRegistrations(), 0, 'after a retention run');
      await storage.close();
      await assert.rejects(storage.countRegistrations(), StorageUnavailableError);
    });
  });
}

describe('the count on PostgreSQL does not make saves wait for each other (docs/operations.md §3)', () => {
  it("a save goes through while another connection's save is still open, and both are counted", async () => {
    const url = await cluster.createDatabase();
    const storage = await openPostgres({ url, poolSize: 2 }); // migrated
    const connect = async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    };
    const shard = async (client: pg.Client) => Number((await client.query<{ s: number }>('SELECT pg_backend_pid() % 64 AS s')).rows[0]!.s);
    const insert = (client: pg.Client, n: number) => client.query("INSERT INTO registrations (id, submission_key, naam, email, gebruikersnaam, landcode, interesses, personen) VALUES ($1, $2, 'Anna', 'a@b.nl', 'anna', 'NL', '{}', 1)", [key(n + 100), key(n)]);
    const first = await connect();
    const clients = [first];
    try {
      // A second connection whose count is kept in another row than the first's.
      let second = await connect();
      clients.push(second);
      while ((await shard(second)) === (await shard(first))) clients.push((second = await connect()));
      await first.query('BEGIN');
      await insert(first, 1);
      // With one row for the count, this insert would wait for the first transaction's end.
      await second.query("SET lock_timeout = '2s'");
      await insert(second, 2);
      await first.query('COMMIT');
      assert.equal(await storage.countRegistrations(), 2);
    } finally {
      await Promise.all(clients.map((c) => c.end()));
      await storage.close();
    }
  });
});

describe('a database migrated with registrations in it counts them (docs/operations.md §3)', () => {
  it('SQLite', async () => {
    const file = await tempFile();
    mkdirSync(dirname(file), { recursive: true });
    const db = new Database(file);
    SQLITE_MIGRATIONS.slice(0, counted(SQLITE_MIGRATIONS)).forEach((sql) => db.exec(sql));
    db.pragma(`user_version = ${counted(SQLITE_MIGRATIONS)}`);
    for (const n of [1, 2]) db.prepare("INSERT INTO registrations (id, submission_key, naam, email, gebruikersnaam, landcode, interesses, personen, created_at) VALUES (?, ?, 'Anna', 'a@b.nl', 'anna', 'NL', '[]', 1, ?)").run(key(n + 100), key(n), new Date().toISOString());
    db.close();
    const storage = await openSqlite(file);
    assert.equal(await storage.countRegistrations(), 2);
    await storage.close();
  });

  it('PostgreSQL', async () => {
    const url = await cluster.createDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())');
    for (const [index, sql] of POSTGRES_MIGRATIONS.slice(0, counted(POSTGRES_MIGRATIONS)).entries()) {
      await client.query(sql);
      await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [index + 1]);
    }
    for (const n of [1, 2, 3]) await client.query("INSERT INTO registrations (id, submission_key, naam, email, gebruikersnaam, landcode, interesses, personen) VALUES ($1, $2, 'Anna', 'a@b.nl', 'anna', 'NL', '{}', 1)", [key(n + 100), key(n)]);
    await client.end();
    const storage = await openPostgres({ url, poolSize: 2 });
    assert.equal(await storage.countRegistrations(), 3);
    await storage.close();
  });
});

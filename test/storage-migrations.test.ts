/**
 * The one list of migrations (docs/operations.md §3): a database migrated before it, by each
 * engine's own count (SQLite's `user_version`, PostgreSQL's `schema_migrations`), keeps going from
 * where it was, and its outbox's messages — pending, leased, sent — come over to a kind and a
 * reference with their states and times; prepared queries refuse a call that misses a value.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import pg from 'pg';
import { registrations } from '../src/forms/registration.js';
import { MIGRATION_NAMES } from '../src/storage/migrations/index.js';
import { MIGRATIONS as POSTGRES } from '../src/storage/migrations/postgres/index.js';
import { MIGRATIONS as SQLITE } from '../src/storage/migrations/sqlite/index.js';
import { openPostgres, openSqlite } from '../src/storage/index.js';
import { param, prepare } from '../src/storage/prepared.js';
import type { Storage } from '../src/storage/types.js';
import { useEngines } from './helpers/engines.js';

const { tempFile, cluster } = useEngines();
const id = (n: number) => `0b0e6e1c-0000-4000-8000-${String(n).padStart(12, '0')}`;
const HOUR = 60 * 60 * 1000;

/** The rows an old database holds: a registration with a message pending and one whose lease has ended, a contact message with one sent. */
const OLD = {
  registration: id(1),
  contact: id(2),
  pending: id(11),
  leased: id(12),
  sent: id(13),
};

/** What the migrated outbox holds of those: kind, reference, state and tries; the leased one due again. */
async function checkMigrated(storage: Storage): Promise<void> {
  const leased = await storage.leaseMail(10, 60_000);
  assert.deepEqual(
    leased.map(({ id: message, kind, about, attempts }) => ({ message, kind, about, attempts })).sort((a, b) => a.message.localeCompare(b.message)),
    [
      { message: OLD.pending, kind: 'registration', about: OLD.registration, attempts: 1 },
      { message: OLD.leased, kind: 'registration', about: OLD.registration, attempts: 2 },
    ],
    'the pending message, and the one whose lease ended, each leased once more',
  );
  const found = await registrations(storage).find(OLD.registration);
  assert.deepEqual(found?.interesses, ['sport', 'natuur'], 'the list reads back');
  // The sent message stays a day from its sending (an hour ago), then goes.
  assert.deepEqual(await storage.deleteExpired([], new Date(Date.now() - 2 * HOUR)), { rows: {}, mail: 0 });
  assert.deepEqual(await storage.deleteExpired([], new Date()), { rows: {}, mail: 1 });
  // The erasure takes its messages along, though no foreign key does any more.
  assert.equal(await registrations(storage).erase(OLD.registration), true);
  assert.deepEqual(await storage.leaseMail(10, 60_000), []);
  await storage.close();
}

describe('a database migrated before the one list (docs/operations.md §3)', () => {
  it('SQLite at user_version 6: goes on from there, its outbox kept', async () => {
    const file = await tempFile();
    mkdirSync(dirname(file), { recursive: true });
    const db = new Database(file);
    SQLITE.slice(0, 6).forEach((sql) => db.exec(sql));
    db.pragma('user_version = 6');
    const iso = (ms: number) => new Date(ms).toISOString();
    const now = Date.now();
    db.prepare("INSERT INTO registrations (id, submission_key, naam, email, gebruikersnaam, landcode, interesses, personen, created_at) VALUES (?, ?, 'Anna', 'anna@voorbeeld.nl', 'anna', 'NL', '[\"sport\",\"natuur\"]', 1, ?)").run(OLD.registration, id(101), iso(now));
    db.prepare("INSERT INTO contact_messages (id, submission_key, naam, email, onderwerp, bericht, created_at) VALUES (?, ?, 'Bob', 'bob@voorbeeld.nl', 'vraag', 'Een vraag over de rondleiding.', ?)").run(OLD.contact, id(102), iso(now));
    const insert = db.prepare('INSERT INTO outbox (id, registration_id, contact_message_id, state, recipient, attempts, due_at, lease, leased_until, created_at, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    insert.run(OLD.pending, OLD.registration, null, 'pending', 'r1', 0, now - 1000, null, null, iso(now), null);
    insert.run(OLD.leased, OLD.registration, null, 'pending', 'r1', 1, now - 1000, id(99), now - 1000, iso(now), null);
    insert.run(OLD.sent, null, OLD.contact, 'sent', 'r2', 1, now - HOUR, null, null, iso(now - HOUR), iso(now - HOUR));
    db.close();
    const storage = await openSqlite(file);
    const names = new Database(file, { readonly: true });
    assert.deepEqual(
      names.prepare<[], { name: string }>('SELECT name FROM kysely_migration ORDER BY name').all().map((r) => r.name),
      MIGRATION_NAMES,
    );
    assert.equal(names.prepare<[], { n: number }>("SELECT sum(value) AS n FROM count_shards WHERE name = 'registrations'").get()!.n, 1, 'the count moved to count_shards');
    names.close();
    await checkMigrated(storage);
  });

  it('PostgreSQL at schema_migrations 7: goes on from there, its outbox kept', async () => {
    const url = await cluster.createDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())');
    for (const [index, sql] of POSTGRES.entries()) {
      await client.query(sql);
      await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [index + 1]);
    }
    await client.query("INSERT INTO registrations (id, submission_key, naam, email, gebruikersnaam, landcode, interesses, personen) VALUES ($1, $2, 'Anna', 'anna@voorbeeld.nl', 'anna', 'NL', '{sport,natuur}', 1)", [OLD.registration, id(101)]);
    await client.query("INSERT INTO contact_messages (id, submission_key, naam, email, onderwerp, bericht) VALUES ($1, $2, 'Bob', 'bob@voorbeeld.nl', 'vraag', 'Een vraag over de rondleiding.')", [OLD.contact, id(102)]);
    await client.query("INSERT INTO outbox (id, registration_id, recipient) VALUES ($1, $2, 'r1')", [OLD.pending, OLD.registration]);
    await client.query("INSERT INTO outbox (id, registration_id, recipient, attempts, lease, leased_until) VALUES ($1, $2, 'r1', 1, $3, now() - interval '1 second')", [OLD.leased, OLD.registration, id(99)]);
    await client.query("INSERT INTO outbox (id, contact_message_id, recipient, state, attempts, created_at, sent_at) VALUES ($1, $2, 'r2', 'sent', 1, now() - interval '1 hour', now() - interval '1 hour')", [OLD.sent, OLD.contact]);
    await client.end();
    const storage = await openPostgres({ url, poolSize: 2 });
    const check = new pg.Client({ connectionString: url });
    await check.connect();
    assert.deepEqual(
      (await check.query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name')).rows.map((r) => r.name),
      MIGRATION_NAMES,
    );
    await check.end();
    await checkMigrated(storage);
  });
});

describe('a prepared query (docs/operations.md §3)', () => {
  it('runs with the values of each call, and refuses a call that misses one', async () => {
    const db = new Kysely<{ t: { a: number; b: string } }>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    await db.schema.createTable('t').addColumn('a', 'integer').addColumn('b', 'text').execute();
    const insert = prepare(db.insertInto('t').values({ a: param('a'), b: param('b') }));
    await insert(db, { a: 1, b: 'een' });
    await insert(db, { a: 2, b: 'twee' });
    assert.deepEqual(await db.selectFrom('t').selectAll().orderBy('a').execute(), [{ a: 1, b: 'een' }, { a: 2, b: 'twee' }]);
    assert.throws(() => insert(db, { a: 3 }), /No value for the query's parameter "b"/);
    await db.destroy();
  });
});

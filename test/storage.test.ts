/**
 * Storage (docs/operations.md §3): the contract both engines keep — migrations, one registration per
 * submission key, settings, rate-limit counters, StorageUnavailableError once closed — their
 * specifics, and what the app answers while the database is unavailable.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { loadConfig } from '../src/config.js';
import { RETENTION_LOCK, openPostgres, openSqlite, openStorage } from '../src/storage/index.js';
import { MIGRATION_NAMES } from '../src/storage/migrations/index.js';
import { StorageUnavailableError } from '../src/storage/types.js';
import pg from 'pg';
import { useEngines } from './helpers/engines.js';
import { REGISTRATION, everyTable, NO_ROWS, TEST_MIGRATIONS } from './helpers/temp-storage.js';
import { startApp, textOf, waitFor } from './helpers/app.js';
import { openForm, postForm, VALID } from './helpers/form.js';
import { registrations } from '../src/forms/registration.js';
import { contactMessages } from '../src/forms/contact.js';

const { engines: ENGINES, tempFile, cluster } = useEngines();

for (const [engine, open] of ENGINES) {
  describe(`the storage contract: ${engine} (docs/operations.md §3)`, () => {
    it('migrates at open, and reopens without migrating twice', async () => {
      const { storage, reopen } = await open();
      await registrations(storage).save('0b0e6e1c-1111-4111-8111-111111111111', REGISTRATION);
      await storage.close();
      const again = await reopen();
      assert.equal(await again.countRegistrations(), 1);
      await again.close();
    });

    it('stores once per submission key (unique constraint), and finds it whole', async () => {
      const { storage } = await open();
      const a = await registrations(storage).save('0b0e6e1c-2222-4222-8222-222222222222', { ...REGISTRATION, interesses: ['sport', 'natuur'], website: 'https://anna.nl' });
      const b = await registrations(storage).save('0b0e6e1c-2222-4222-8222-222222222222', { ...REGISTRATION, naam: 'Bob' });
      assert.equal(a.created, true);
      assert.equal(b.created, false);
      assert.equal(b.id, a.id);
      const found = await registrations(storage).find(a.id);
      assert.deepEqual({ ...found, createdAt: undefined }, { ...REGISTRATION, interesses: ['sport', 'natuur'], website: 'https://anna.nl', id: a.id, createdAt: undefined });
      assert.ok(!Number.isNaN(Date.parse(found!.createdAt)), 'an ISO time');
      assert.equal(await registrations(storage).find('0b0e6e1c-9999-4999-8999-999999999999'), undefined);
      assert.equal(await storage.countRegistrations(), 1);
      await storage.close();
    });

    it('erases a registration: found no more, counted no more; erasing it again finds nothing', async () => {
      const { storage } = await open();
      const { id } = await registrations(storage).save('0b0e6e1c-5555-4555-8555-555555555555', REGISTRATION);
      const kept = await registrations(storage).save('0b0e6e1c-6666-4666-8666-666666666666', REGISTRATION);
      assert.equal(await registrations(storage).erase(id), true);
      assert.equal(await registrations(storage).find(id), undefined);
      assert.equal(await registrations(storage).erase(id), false);
      assert.ok(await registrations(storage).find(kept.id), 'another registration stays');
      assert.equal(await storage.countRegistrations(), 1);
      await storage.close();
    });

    it('deletes what was stored before a time: registrations and contact messages, nothing newer', async () => {
      const { storage } = await open();
      await registrations(storage).save('0b0e6e1c-7777-4777-8777-777777777777', REGISTRATION);
      await contactMessages(storage).save('0b0e6e1c-8888-4888-8888-888888888888', { naam: 'Anna', email: 'anna@voorbeeld.nl', onderwerp: 'vraag', bericht: 'Een vraag over de rondleiding.' });
      assert.deepEqual(await storage.deleteExpired(everyTable(new Date(Date.now() - 60_000)), new Date()), { rows: NO_ROWS, mail: 0 }, 'nothing is that old');
      assert.equal(await storage.countRegistrations(), 1);
      // Their two e-mails, still pending, go with them and are counted.
      assert.deepEqual(await storage.deleteExpired(everyTable(new Date(Date.now() + 60_000)), new Date()), { rows: { ...NO_ROWS, registrations: 1, contact_messages: 1 }, mail: 2 });
      assert.equal(await storage.countRegistrations(), 0);
      await storage.close();
    });

    it('stores a contact message once per submission key, and finds it whole', async () => {
      const { storage } = await open();
      const message = { naam: 'Anna de Vries', email: 'anna@voorbeeld.nl', onderwerp: 'vraag', bericht: 'Hoe laat begint de rondleiding?' };
      const a = await contactMessages(storage).save('0b0e6e1c-4444-4444-8444-444444444444', message);
      const b = await contactMessages(storage).save('0b0e6e1c-4444-4444-8444-444444444444', { ...message, naam: 'Bob' });
      assert.equal(a.created, true);
      assert.equal(b.created, false);
      assert.equal(b.id, a.id);
      const found = await contactMessages(storage).find(a.id);
      assert.deepEqual({ ...found, createdAt: undefined }, { ...message, id: a.id, createdAt: undefined });
      assert.ok(!Number.isNaN(Date.parse(found!.createdAt)), 'an ISO time');
      assert.equal(await contactMessages(storage).find('0b0e6e1c-9999-4999-8999-999999999999'), undefined);
      const other = await contactMessages(storage).save('0b0e6e1c-5555-4555-8555-555555555555', message);
      assert.notEqual(other.id, a.id, 'another key is another message');
      await storage.close();
    });

    it('creates a setting once: the first value wins', async () => {
      const { storage } = await open();
      assert.equal(await storage.setting('x', () => 'eerste'), 'eerste');
      assert.equal(await storage.setting('x', () => 'tweede'), 'eerste');
      await storage.close();
    });

    it('counts rate-limit hits per key and window, takes one back, forgets a key', async () => {
      const { storage } = await open();
      assert.equal((await storage.hitRateLimit('a', 60_000)).hits, 1);
      const second = await storage.hitRateLimit('a', 60_000);
      assert.equal(second.hits, 2);
      assert.ok(second.resetAt.getTime() > Date.now() + 50_000 && second.resetAt.getTime() <= Date.now() + 60_000);
      assert.equal((await storage.hitRateLimit('b', 60_000)).hits, 1, 'keys apart');
      await storage.unhitRateLimit('a');
      assert.equal((await storage.hitRateLimit('a', 60_000)).hits, 2);
      await storage.resetRateLimit('a');
      assert.equal((await storage.hitRateLimit('a', 60_000)).hits, 1);
      // A window that has ended starts again: it ends at resetAt, on the clock of the hits (the process's).
      const { resetAt } = await storage.hitRateLimit('c', 1);
      await waitFor(() => Date.now() >= resetAt.getTime());
      assert.equal((await storage.hitRateLimit('c', 60_000)).hits, 1);
      await storage.close();
    });

    it('rejects with StorageUnavailableError once closed, never a raw driver error', async () => {
      const { storage } = await open();
      await storage.close();
      await assert.rejects(storage.countRegistrations(), StorageUnavailableError);
      await assert.rejects(registrations(storage).find('0b0e6e1c-9999-4999-8999-999999999999'), StorageUnavailableError);
      await assert.rejects(registrations(storage).erase('0b0e6e1c-9999-4999-8999-999999999999'), StorageUnavailableError);
      await assert.rejects(storage.hitRateLimit('a', 1000), StorageUnavailableError);
    });
  });
}

describe('engine specifics', () => {
  it('SQLite: creates its file and folder; kysely_migration records every migration', async () => {
    const file = await tempFile();
    const storage = await openSqlite(file);
    await storage.close();
    const db = new Database(file, { readonly: true });
    assert.deepEqual(
      db.prepare<[], { name: string }>('SELECT name FROM kysely_migration ORDER BY name').all().map((r) => r.name),
      MIGRATION_NAMES,
    );
    db.close();
  });

  it('PostgreSQL: instances starting together migrate once, under the lock', async () => {
    const url = await cluster.createDatabase();
    const stores = await Promise.all(Array.from({ length: 4 }, () => openPostgres({ url, poolSize: 2 })));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query('SELECT name FROM kysely_migration ORDER BY name');
    await client.end();
    assert.deepEqual(
      rows.map((r: { name: string }) => r.name),
      MIGRATION_NAMES,
    );
    await Promise.all(stores.map((s) => s.close()));
  });

  it('PostgreSQL: the retention job runs on one instance at a time, under its advisory lock', async () => {
    const url = await cluster.createDatabase();
    const storage = await openPostgres({ url, poolSize: 2 }, TEST_MIGRATIONS);
    await registrations(storage).save('0b0e6e1c-9999-4999-8999-000000000001', REGISTRATION);
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    await other.query('SELECT pg_advisory_lock($1)', [RETENTION_LOCK]);
    assert.equal(await storage.deleteExpired(everyTable(new Date(Date.now() + 60_000)), new Date()), undefined, 'another instance is running it');
    assert.equal(await storage.countRegistrations(), 1);
    await other.query('SELECT pg_advisory_unlock($1)', [RETENTION_LOCK]);
    await other.end();
    assert.deepEqual(await storage.deleteExpired(everyTable(new Date(Date.now() + 60_000)), new Date()), { rows: { ...NO_ROWS, registrations: 1 }, mail: 1 });
    await storage.close();
  });

  it('PostgreSQL: an unreachable server is StorageUnavailableError at open', async () => {
    await assert.rejects(openPostgres({ url: 'postgres://eiland@127.0.0.1:1/x', poolSize: 1 }), StorageUnavailableError);
  });

  it('openStorage picks the engine from DATABASE_URL', async () => {
    const url = await cluster.createDatabase();
    const storage = await openStorage(loadConfig({ DATABASE_URL: url }));
    await registrations(storage).save('0b0e6e1c-3333-4333-8333-333333333333', REGISTRATION);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    assert.equal((await client.query('SELECT count(*)::int AS n FROM registrations')).rows[0].n, 1, 'stored in PostgreSQL');
    await client.end();
    await storage.close();
  });
});

describe('when the database is unavailable', () => {
  it('answers 503 where a page needs it before the shell, and / says the count is not available', async () => {
    const app = await startApp();
    try {
      const form = await openForm(app, '/aanmelden');
      const posted = await postForm(app, '/aanmelden', VALID);
      const confirmation = String(posted.headers.location);
      await app.storage.close();
      const page = await app.request(confirmation);
      assert.equal(page.status, 503);
      assert.equal(textOf(page.body, 'title'), '503: An unexpected error has occurred');
      assert.equal((await postForm(app, '/aanmelden', VALID, form)).status, 503);
      const start = await app.request('/', { headers: { 'User-Agent': 'Googlebot/2.1' } });
      assert.equal(start.status, 200);
      assert.match(start.body, /Het aantal aanmeldingen is nu niet beschikbaar\./);
    } finally {
      await app.close().catch(() => undefined);
    }
  });
});

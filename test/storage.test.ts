import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { openStorage } from '../src/storage/index.js';
import { openSqlite } from '../src/storage/sqlite.js';
import { StorageUnavailableError, type NewRegistration } from '../src/storage/types.js';
import { logCollector, raw, startApp, tempStorage, textOf } from './helpers/app.js';
import { openForm, postForm, VALID } from './helpers/form.js';

const dirs: string[] = [];
async function tempFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'eiland-store-'));
  dirs.push(dir);
  return join(dir, 'nested', 'eiland.db');
}
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const REGISTRATION: NewRegistration = {
  naam: 'Anna',
  email: 'anna@voorbeeld.nl',
  website: null,
  referentie: null,
  gebruikersnaam: 'anna',
  landcode: 'NL',
  interesses: ['sport'],
  personen: 1,
};

describe('the SQLite storage (product.md §12)', () => {
  it('creates its file and folder, migrates at open, and reopens without migrating twice', async () => {
    const file = await tempFile();
    const first = await openSqlite(file);
    await first.saveRegistration('0b0e6e1c-1111-4111-8111-111111111111', REGISTRATION);
    await first.close();
    const again = await openSqlite(file);
    assert.equal(await again.countRegistrations(), 1);
    await again.close();
    const db = new Database(file, { readonly: true });
    assert.equal(db.pragma('user_version', { simple: true }), 1);
    db.close();
  });

  it('stores once per submission key (unique constraint)', async () => {
    const { storage, remove } = await tempStorage();
    const a = await storage.saveRegistration('0b0e6e1c-2222-4222-8222-222222222222', REGISTRATION);
    const b = await storage.saveRegistration('0b0e6e1c-2222-4222-8222-222222222222', { ...REGISTRATION, naam: 'Bob' });
    assert.equal(a.created, true);
    assert.equal(b.created, false);
    assert.equal(b.id, a.id);
    assert.equal((await storage.findRegistration(a.id))?.naam, 'Anna');
    assert.equal(await storage.countRegistrations(), 1);
    await storage.close();
    await remove();
  });

  it('creates a setting once: the first value wins', async () => {
    const { storage, remove } = await tempStorage();
    assert.equal(await storage.setting('x', () => 'eerste'), 'eerste');
    assert.equal(await storage.setting('x', () => 'tweede'), 'eerste');
    await storage.close();
    await remove();
  });

  it('rejects with StorageUnavailableError (503) once closed, never a raw driver error', async () => {
    const { storage, remove } = await tempStorage();
    await storage.close();
    await assert.rejects(storage.countRegistrations(), (e: unknown) => e instanceof StorageUnavailableError && e.status === 503);
    await assert.rejects(storage.findRegistration('x'), StorageUnavailableError);
    await remove();
  });

  it('refuses DATABASE_URL clearly while only SQLite is built', async () => {
    await assert.rejects(openStorage({ databaseUrl: 'postgres://localhost/eiland' }), /only has the embedded SQLite engine/);
  });
});

describe('when the database is unavailable', () => {
  it('answers 503 where a page needs it before the shell, and / says the count is not available', async () => {
    const app = await startApp();
    try {
      const form = await openForm(app);
      const posted = await postForm(app, VALID);
      const confirmation = String(posted.headers.location);
      await app.storage.close();
      const page = await raw(app.port, confirmation);
      assert.equal(page.status, 503);
      assert.equal(textOf(page.body, 'title'), '503: An unexpected error has occurred');
      assert.equal((await postForm(app, VALID, form)).status, 503);
      const start = await raw(app.port, '/', { headers: { 'User-Agent': 'Googlebot/2.1' } });
      assert.equal(start.status, 200);
      assert.match(start.body, /Het aantal aanmeldingen is nu niet beschikbaar\./);
    } finally {
      await app.close().catch(() => undefined);
    }
  });
});

describe('two instances on one database (product.md §12)', () => {
  it('share the CSRF secret kept in the database: a form from one posts to the other', async () => {
    const databaseFile = await tempFile();
    const config = loadConfig({ PORT: '0', LOG_LEVEL: 'silent' });
    assert.equal(config.csrfSecret, undefined);
    const a = await startServer(config, { databaseFile, logStream: logCollector().stream });
    const b = await startServer(config, { databaseFile, logStream: logCollector().stream });
    try {
      const portOf = (url: string) => Number(new URL(url).port);
      const appA = { port: portOf(a.url), url: a.url };
      const appB = { port: portOf(b.url), url: b.url };
      const session = await openForm(appA);
      const res = await postForm(appB, VALID, session);
      assert.equal(res.status, 303);
      const page = await raw(appA.port, String(res.headers.location));
      assert.equal(page.status, 200);
    } finally {
      await a.shutdown('test');
      await b.shutdown('test');
    }
  });
});

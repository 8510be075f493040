/**
 * Several instances on one database (docs/operations.md §3, §8): they share what they keep there — the
 * CSRF secret, the registrations, the rate limit — so a form rendered by one posts to another.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig, type Config } from '../src/config.js';
import { startServer, type ServerOptions } from '../src/server.js';
import { freshAddress, raw } from './helpers/app.js';
import { openForm, postForm, VALID } from './helpers/form.js';
import { logCollector } from './helpers/logs.js';
import { usePostgres } from './helpers/postgres.js';

const cluster = usePostgres();

/** A started instance as the form helpers take it. */
type Instance = { port: number; url: string };

/**
 * Starts two instances of one configuration, runs a step with them and shuts both down, also
 * when the step fails.
 * @param options each instance's server options (its own log stream is added)
 */
async function withTwoInstances(config: Config, options: Omit<ServerOptions, 'logStream'>, step: (a: Instance, b: Instance) => Promise<void>): Promise<void> {
  const a = await startServer(config, { ...options, logStream: logCollector().stream });
  const b = await startServer(config, { ...options, logStream: logCollector().stream }).catch(async (error: unknown) => {
    await a.shutdown('test');
    throw error;
  });
  try {
    const instance = (url: string) => ({ port: Number(new URL(url).port), url });
    await step(instance(a.url), instance(b.url));
  } finally {
    await a.shutdown('test');
    await b.shutdown('test');
  }
}

describe('two instances on one database (docs/operations.md §3)', () => {
  it('share the CSRF secret kept in the database: a form from one posts to the other', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'eiland-store-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const config = loadConfig({ PORT: '0', LOG_LEVEL: 'silent' });
    assert.equal(config.csrfSecret, undefined);
    await withTwoInstances(config, { databaseFile: join(dir, 'nested', 'eiland.db') }, async (appA, appB) => {
      const session = await openForm(appA, '/aanmelden');
      const res = await postForm(appB, '/aanmelden', VALID, session);
      assert.equal(res.status, 303);
      const page = await raw(appA.port, String(res.headers.location));
      assert.equal(page.status, 200);
    });
  });
});

describe('two stateless instances on one PostgreSQL database', () => {
  it('confirm each other’s registrations, accept each other’s forms, and enforce one rate limit', async (t) => {
    const url = await cluster.createDatabase();
    const config = loadConfig({ PORT: '0', LOG_LEVEL: 'silent', DATABASE_URL: url, FORM_RATE_LIMIT: '3/1m' });
    const mailDir = await mkdtemp(join(tmpdir(), 'eiland-mail-'));
    t.after(() => rm(mailDir, { recursive: true, force: true }));
    await withTwoInstances(config, { mailDir }, async (appA, appB) => {
      // Rendered by A, posted to B, confirmed by A.
      const from = freshAddress();
      const posted = await postForm(appB, '/aanmelden', VALID, await openForm(appA, '/aanmelden', from));
      assert.equal(posted.status, 303);
      const page = await raw(appA.port, String(posted.headers.location));
      assert.equal(page.status, 200);
      assert.match(page.body, /Anna de Vries/);
      // One limit of 3 posts for both: one post on B above, then A, B → the fourth (A) is refused.
      assert.equal((await postForm(appA, '/aanmelden', { naam: '' }, await openForm(appB, '/aanmelden', from))).status, 422);
      assert.equal((await postForm(appB, '/aanmelden', { naam: '' }, await openForm(appA, '/aanmelden', from))).status, 422);
      assert.equal((await postForm(appA, '/aanmelden', { naam: '' }, await openForm(appA, '/aanmelden', from))).status, 429);
    });
  });
});

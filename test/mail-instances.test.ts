/**
 * The outbox with several instances (docs/operations.md §12): two instances on one PostgreSQL
 * deliver each message once, both sending; and a stop signal during a send loses nothing, sends
 * nothing twice — instances as processes of their own, a real SMTP server on loopback.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { openPostgres } from '../src/storage/index.js';
import { LEASE_BATCH } from '../src/mail/sender.js';
import { startServer } from '../src/server.js';
import { REGISTRATION } from './helpers/temp-storage.js';
import { openForm, postForm, VALID } from './helpers/form.js';
import { logCollector, type LogLine } from './helpers/logs.js';
import { usePostgres } from './helpers/postgres.js';
import { startFixtureServer } from './helpers/project.js';
import { startSmtp, type TestSmtp } from './helpers/smtp.js';
import { waitFor, within } from './helpers/wait.js';
import { registrations } from '../src/forms/registration.js';

const cluster = usePostgres();
const SECRET = 'test-secret-test-secret-test-secret-0123';
const EXIT_MS = 15_000;
const key = (n: number) => `0b0e6e1c-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** The outbox's rows, as an operator reads them. */
async function outbox(url: string): Promise<Array<{ state: string; attempts: number; leased: boolean }>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ state: string; attempts: number; leased: boolean }>('SELECT state, attempts, lease IS NOT NULL AS leased FROM outbox')).rows;
  } finally {
    await client.end();
  }
}

/** Whether every message of the outbox is recorded as sent, its lease given up. */
async function allSent(url: string): Promise<boolean> {
  return (await outbox(url)).every((row) => row.state === 'sent' && !row.leased);
}

/**
 * Posts a registration of another person to an instance and waits until its e-mail is delivered
 * and recorded as sent. The read of the outbox that leases it would lease any message due again
 * with it, and the outbox is settled only once both are sent: the bound of a test that a message
 * is not sent twice.
 */
async function laterMessage(instance: { port: number; url: string }, url: string, smtp: TestSmtp): Promise<void> {
  const received = smtp.received.length;
  const session = await openForm(instance, '/aanmelden');
  assert.equal((await postForm(instance, '/aanmelden', { ...VALID, email: 'later@voorbeeld.nl' }, session)).status, 303);
  await waitFor(() => smtp.received.some((m, i) => i >= received && m.to && !Array.isArray(m.to) && m.to.text === 'later@voorbeeld.nl'), 10_000);
  await waitFor(() => allSent(url), 10_000).catch(async () => {
    throw new Error(`the outbox is not all sent after ${smtp.tries} tries: ${JSON.stringify(await outbox(url))}`);
  });
}

/** An instance on the database, in this process, with its log. */
async function instance(t: TestContext, env: NodeJS.ProcessEnv) {
  const { stream, lines } = logCollector();
  const running = await startServer(loadConfig({ PORT: '0', LOG_LEVEL: 'info', CSRF_SECRET: SECRET, MAIL_RETRY_MS: '100', ...env }), { logStream: stream });
  t.after(() => running.shutdown('test'));
  return { sent: () => lines.map((l) => JSON.parse(l) as LogLine).filter((l) => l.event === 'mail_sent').length };
}

describe('the outbox with several instances (docs/operations.md §12)', () => {
  it('two instances on one PostgreSQL deliver every message once, and both take part', async (t) => {
    const url = await cluster.createDatabase();
    const smtp = await startSmtp('slow');
    t.after(() => smtp.stop());
    smtp.slowMs = 50;
    const env = { DATABASE_URL: url, SMTP_URL: smtp.url };
    const [a, b] = [await instance(t, env), await instance(t, env)];
    // Written by a third party at once, so both instances find them on their next read; more than
    // one lease's batch, so the first reader cannot take them all.
    const count = 4 * LEASE_BATCH;
    const writer = await openPostgres({ url, poolSize: 2 });
    const ids = [];
    for (let n = 1; n <= count; n++) ids.push((await registrations(writer).save(key(n), { ...REGISTRATION, naam: `Persoon ${n}`, email: `persoon${n}@voorbeeld.nl` })).id);
    await writer.close();
    await smtp.waitForReceived(count, 30_000);
    await waitFor(() => allSent(url), 10_000);
    assert.equal(smtp.received.length, count, 'none twice');
    const linked = smtp.received.map((m) => /\/aanmeldingen\/([0-9a-f-]{36})/.exec(String(m.text))?.[1]);
    assert.deepEqual(new Set(linked), new Set(ids), 'each registration got its own');
    assert.equal(new Set(smtp.received.map((m) => m.messageId)).size, count);
    assert.ok(a.sent() > 0 && b.sent() > 0, `both sent: ${a.sent()} and ${b.sent()}`);
    assert.equal(a.sent() + b.sent(), count);
  });

  it('a stop signal during a send that does not end gives the message back; the next instance delivers it once', async (t) => {
    const url = await cluster.createDatabase();
    const smtp = await startSmtp('hang');
    t.after(() => smtp.stop());
    const env = { DATABASE_URL: url, SMTP_URL: smtp.url, MAIL_RETRY_MS: '100', CSRF_SECRET: SECRET };
    const first = await startFixtureServer(env);
    try {
      assert.equal((await postForm(first, '/aanmelden', VALID, await openForm(first, '/aanmelden'))).status, 303);
      await waitFor(() => smtp.tries === 1, 10_000);
      assert.deepEqual(await outbox(url), [{ state: 'pending', attempts: 1, leased: true }], 'leased while it is sent');
      first.server.child.kill('SIGTERM');
      assert.equal(await within(first.server.exited, EXIT_MS, 'the exit after SIGTERM'), 0);
    } finally {
      await first.server.stop('SIGKILL');
    }
    assert.deepEqual(await outbox(url), [{ state: 'pending', attempts: 0, leased: false }], 'given back, due at once, the try not counted');
    smtp.mode = 'accept';
    const second = await startFixtureServer(env);
    try {
      await smtp.waitForReceived(1);
      await waitFor(() => allSent(url), 10_000);
      const [given] = smtp.received;
      await laterMessage(second, url, smtp);
      assert.equal(smtp.received.length, 2);
      assert.equal(smtp.received.filter((m) => m.messageId === given!.messageId).length, 1, 'the given-back message delivered once');
      assert.equal(second.lines().find((l) => l.event === 'mail_sent')?.attempts, 1, 'the given-back try was not counted');
    } finally {
      await second.server.stop();
    }
  });

  it('a stop signal during a slow send lets it finish: sent once, not again by the next instance', async (t) => {
    const url = await cluster.createDatabase();
    const smtp = await startSmtp('slow');
    t.after(() => smtp.stop());
    smtp.slowMs = 1500;
    const env = { DATABASE_URL: url, SMTP_URL: smtp.url, MAIL_RETRY_MS: '100', CSRF_SECRET: SECRET };
    const first = await startFixtureServer(env);
    try {
      assert.equal((await postForm(first, '/aanmelden', VALID, await openForm(first, '/aanmelden'))).status, 303);
      await waitFor(() => smtp.tries === 1, 10_000);
      first.server.child.kill('SIGTERM');
      assert.equal(await within(first.server.exited, EXIT_MS, 'the exit after SIGTERM'), 0);
      assert.equal(first.lines().filter((l) => l.event === 'mail_sent').length, 1, 'sent before it exited');
    } finally {
      await first.server.stop('SIGKILL');
    }
    assert.deepEqual(await outbox(url), [{ state: 'sent', attempts: 1, leased: false }], 'recorded as sent: nothing for the next instance');
    const second = await startFixtureServer(env);
    try {
      await laterMessage(second, url, smtp);
      assert.equal(smtp.received.length, 2, 'the later message besides the first');
      assert.equal(smtp.tries, 2, 'not sent again');
    } finally {
      await second.server.stop();
    }
  });
});

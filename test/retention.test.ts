/**
 * Retention that runs itself (docs/operations.md §11): `RETENTION_DAYS` (default 365) is how long a
 * registration or contact message is kept; the job deletes what is older at start-up and every
 * hour, logs and counts how many, survives a database that is gone, and the privacy page says
 * the configured time.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { ConfigError, DEFAULT_RETENTION_DAYS, loadConfig } from '../src/config.js';
import { createMailTransport } from '../src/mail/transport.js';
import { createMetrics } from '../src/metrics/index.js';
import { startRetention } from '../src/retention.js';
import { startServer } from '../src/server.js';
import { useApp, waitFor } from './helpers/app.js';
import { logCollector } from './helpers/logs.js';
import { REGISTRATION, tempStorage } from './helpers/temp-storage.js';
import { registrations } from '../src/forms/registration.js';
import { contactMessages } from '../src/forms/contact.js';
import { retained } from '../src/forms/index.js';

const DAY_MS = 24 * 60 * 60 * 1000;
describe('retention (docs/operations.md §11)', () => {
  it('RETENTION_DAYS: 365 by default, a whole number of days from 1 to 36500, else the start is refused', () => {
    assert.equal(loadConfig({}).retentionDays, DEFAULT_RETENTION_DAYS);
    assert.equal(DEFAULT_RETENTION_DAYS, 365);
    assert.equal(loadConfig({ RETENTION_DAYS: '30' }).retentionDays, 30);
    for (const bad of ['0', '-1', '1.5', 'jaar', '36501']) {
      assert.throws(() => loadConfig({ RETENTION_DAYS: bad }), (error: unknown) => error instanceof ConfigError && error.problems.some((p) => p === `RETENTION_DAYS must be a whole number of days from 1 to 36500, got "${bad}"`), bad);
    }
  });

  it('deletes what is older than the retention, logs (at info when it deleted some) and counts it, and keeps what is not', async () => {
    const temp = await tempStorage();
    const { stream, lines } = logCollector();
    const metrics = createMetrics();
    try {
      await registrations(temp.storage).save('0b0e6e1c-1111-4111-8111-000000000001', REGISTRATION);
      await contactMessages(temp.storage).save('0b0e6e1c-1111-4111-8111-000000000002', { naam: 'Anna', email: 'anna@voorbeeld.nl', onderwerp: 'vraag', bericht: 'Een vraag over de rondleiding.' });
      for (const mail of await temp.storage.leaseMail(10, 60_000)) await temp.storage.settleMail(mail, { state: 'sent' });
      const logger = pino({ level: 'debug' }, stream);
      const runAt = async (days: number) => {
        const run = startRetention({ storage: temp.storage, mailCopies: createMailTransport(undefined, temp.mailDir), tables: retained(30), logger, metrics, now: () => Date.now() + days * DAY_MS });
        await run.firstRun;
        await run.stop();
      };
      const DAYS_30 = Object.fromEntries(retained(30).map(({ table, days }) => [table, days]));
      // Today nothing is 30 days old, nor was the e-mail sent a day ago; in 2 days it was; in 31 days, everything is.
      await runAt(0);
      assert.equal(await temp.storage.countRegistrations(), 1);
      await runAt(2);
      assert.equal(await temp.storage.countRegistrations(), 1);
      await runAt(31);
      assert.equal(await temp.storage.countRegistrations(), 0);
      const runs = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.event === 'retention_run');
      assert.deepEqual(
        runs.map(({ retentionDays, registrations, contact_messages, mail, level }) => ({ retentionDays, registrations, contact_messages, mail, level })),
        [
          { retentionDays: DAYS_30, registrations: 0, contact_messages: 0, mail: 0, level: 20 },
          { retentionDays: DAYS_30, registrations: 0, contact_messages: 0, mail: 2, level: 30 },
          { retentionDays: DAYS_30, registrations: 1, contact_messages: 1, mail: 0, level: 30 },
        ],
      );
      assert.ok(!lines.some((l) => l.includes('anna')), 'nothing of the person in the log');
      const counted = (await metrics.registry.getSingleMetric('eiland_retention_deleted_total')!.get()).values.map((v) => [v.labels.kind, v.value]);
      assert.deepEqual(Object.fromEntries(counted), { registrations: 1, contact_messages: 1, mail: 2, mail_files: 0, beheer: 0 });
    } finally {
      await temp.storage.close();
      await temp.remove();
    }
  });

  it('logs a run the database refuses at warn, and does not throw', async () => {
    const temp = await tempStorage();
    await temp.storage.close();
    const { stream, lines } = logCollector();
    await startRetention({ storage: temp.storage, mailCopies: createMailTransport(undefined, temp.mailDir), tables: retained(30), logger: pino(stream), metrics: createMetrics() }).firstRun;
    await temp.remove();
    const failed = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.event === 'retention_failed');
    assert.equal(failed.length, 1);
    assert.equal(failed[0]!.level, 40);
  });

  it('runs at start-up of the server', async () => {
    const temp = await tempStorage();
    const { stream, lines } = logCollector();
    const running = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', CSRF_SECRET: 'test-secret-test-secret-test-secret-0123', RETENTION_DAYS: '7', LOG_LEVEL: 'debug' }), { storage: temp.storage, mailDir: temp.mailDir, logStream: stream });
    try {
      await waitFor(() => lines.some((l) => l.includes('"retention_run"')));
      const run = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.event === 'retention_run');
      assert.deepEqual(run?.retentionDays, Object.fromEntries(retained(7).map(({ table, days }) => [table, days])));
    } finally {
      await running.shutdown('SIGTERM');
      await temp.remove();
    }
  });
});

describe('the privacy page says the retention (docs/pages.md §1)', () => {
  const app = useApp({}, { RETENTION_DAYS: '90' });
  it('names the configured days', async () => {
    const page = await app.request('/privacy');
    assert.equal(page.status, 200);
    assert.match(page.body.replaceAll('<!-- -->', ''), /We bewaren je aanmelding en je berichten aan ons 90 dagen na het\s+versturen\./);
  });
});

/**
 * The background jobs at shutdown (docs/operations.md §5, §11, §12): they stop in the order the
 * site declares (src/site.ts), each at once, none waiting for the one before; the database closes
 * only once they have ended, and the metrics listener, which serves during the drain, after it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../src/config.js';
import { stopJobs, type Job } from '../src/jobs.js';
import { startServer } from '../src/server.js';
import type { Storage } from '../src/storage/types.js';
import { FORMS, FORMS_MODULE } from './fixtures/forms.js';
import { waitFor, within } from './helpers/app.js';
import { logCollector } from './helpers/logs.js';
import { tempStorage } from './helpers/temp-storage.js';
import { testAssets } from './helpers/test-dist.js';

/** A promise and the function that resolves it. */
function gate(): { opened: Promise<void>; open(): void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('stopJobs', () => {
  it('begins every stop in the listed order, none waiting for the one before, and resolves once all have ended', async () => {
    const seen: string[] = [];
    const slow = gate();
    const job = (name: string, ends: Promise<void>): Job => ({
      name,
      stop: async () => {
        seen.push(`${name} stopping`);
        await ends;
        seen.push(`${name} stopped`);
      },
    });
    let done = false;
    const stopped = stopJobs([job('first', slow.opened), job('second', Promise.resolve())], pino({ level: 'silent' })).then(() => (done = true));
    await waitFor(() => seen.includes('second stopped'));
    assert.deepEqual(seen, ['first stopping', 'second stopping', 'second stopped']);
    assert.equal(done, false, 'not ended while the first job is still stopping');
    slow.open();
    await within(stopped, 1000, 'stopJobs');
    assert.deepEqual(seen, ['first stopping', 'second stopping', 'second stopped', 'first stopped']);
  });
});

describe('the server at shutdown', () => {
  it('stops the retention job, then the sender, then the metrics listener, and closes the database only after the retention run under way', async () => {
    const temp = await tempStorage();
    const { stream, lines } = logCollector();
    // The start-up's retention run is held in the database until the test lets it go.
    const held = gate();
    const reached = gate();
    let closedAt: number | undefined;
    const storage: Storage = {
      ...temp.storage,
      async deleteExpired(...args) {
        reached.open();
        await held.opened;
        return temp.storage.deleteExpired(...args);
      },
      async close() {
        closedAt = lines.length;
        await temp.storage.close();
      },
    };
    const config = loadConfig({ PORT: '0', LOG_LEVEL: 'debug', CSRF_SECRET: 'test-secret-test-secret-test-secret-0123', METRICS_PORT: '0' });
    const running = await startServer(config, { storage, mailDir: temp.mailDir, logStream: stream, forms: FORMS, formsModule: FORMS_MODULE, assets: testAssets() });
    try {
      await within(reached.opened, 5000, 'the retention run');
      const shutdown = running.shutdown('test');
      const events = () => lines.map((l) => JSON.parse(l) as { event?: string; job?: string });
      const stopped = (job: string) => events().findIndex((l) => l.event === 'job_stopped' && l.job === job);
      await waitFor(() => stopped('mailer') >= 0 && stopped('metrics_listener') >= 0);
      assert.equal(closedAt, undefined, 'the database is open while the retention run is under way');
      const released = lines.length;
      held.open();
      await within(shutdown, 5000, 'the shutdown');

      assert.deepEqual(
        events().filter((l) => l.event === 'job_stopping').map((l) => l.job),
        ['retention', 'mailer', 'metrics_listener'],
        'the declared order',
      );
      assert.ok(stopped('retention') >= released, 'the retention job ended after its run was let go');
      assert.ok(closedAt !== undefined && closedAt > stopped('retention') && closedAt > stopped('mailer'), 'the database closed after both jobs');
      assert.equal(events().at(-1)?.event, 'shutdown_complete');
    } finally {
      await running.shutdown('test');
      await temp.remove();
    }
  });
});

/**
 * The outbox's sender on a thread of its own (docs/operations.md §12): an e-mail is composed and
 * written while the thread that answers requests is busy, and a worker that fails is started again,
 * sooner or later as it keeps failing.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { VALID } from './helpers/form.js';
import { serverWith } from './helpers/mail-server.js';
import { waitFor } from './helpers/wait.js';

/** How long the busy thread waits for the e-mail's file at most, in ms. */
const BUSY_MS = 20_000;

describe("the outbox's sender thread (docs/operations.md §12)", () => {
  it('writes an e-mail while the thread that answers requests does nothing else', async (t) => {
    const site = await serverWith(t, {});
    await site.afterReads(1);
    await site.post('/aanmelden', VALID);
    // This thread is the server's: spinning here, only another thread can write the file.
    const started = performance.now();
    let written = false;
    while (!written && performance.now() - started < BUSY_MS) written = existsSync(site.temp.mailDir) && readdirSync(site.temp.mailDir).some((name) => name.endsWith('.eml'));
    assert.ok(written, `no .eml written within ${BUSY_MS} ms while this thread was busy`);
    await waitFor(() => site.events('mail_sent').length === 1, 10_000);
  });

  it('starts a failed worker again after a second, then twice as long each time, and it sends what was written meanwhile', async (t) => {
    const marker = join(tmpdir(), `eiland-fail-marks-${process.pid}-${Date.now()}`);
    Object.assign(process.env, { EILAND_FAIL_MARKS: marker, EILAND_FAIL_TIMES: '3' });
    t.after(() => {
      delete process.env.EILAND_FAIL_MARKS;
      delete process.env.EILAND_FAIL_TIMES;
      rmSync(marker, { force: true });
    });
    const site = await serverWith(t, {}, new URL('./fixtures/forms-failing.ts', import.meta.url).href);
    await site.post('/aanmelden', VALID);
    await waitFor(() => site.events('mail_sent').length === 1, 30_000);
    const failures = site.events('mail_worker_failed');
    assert.deepEqual(
      failures.map((line) => [(line.err as { message?: string } | undefined)?.message, line.restartInMs]),
      [1000, 2000, 4000].map((ms) => ['the forms failed to load (test/fixtures/forms-failing.ts)', ms]),
    );
  });
});

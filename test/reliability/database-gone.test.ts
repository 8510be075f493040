/**
 * The database gone for a moment (docs/operations.md §3, §10): the test's own PostgreSQL stopped
 * and started again, and the SQLite file made unwritable and writable again, under concurrent
 * form posts. In the window: the 503 page, never a crash; on PostgreSQL the start page says the
 * count is not available (SQLite can still read it, so it still shows it); nothing
 * half-written; afterwards the same forms go through without a restart, each once.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { userInfo } from 'node:os';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { textOf } from '../helpers/app.js';
import { openForm, postForm, VALID, type FormSession } from '../helpers/form.js';
import { usePostgres } from '../helpers/postgres.js';
import { BUNDLE_FILES, startBundle, useProjectCopy, withProcess, type RunningBundle } from '../helpers/project.js';

const POSTS = 10;
const BOT = { 'User-Agent': 'Googlebot/2.1' }; // the whole document at once, count included
const UNAVAILABLE = /Het aantal aanmeldingen is nu niet beschikbaar\./;
const run = promisify(execFile);

/** The count the start page shows, or undefined when it shows none. */
async function shownCount(url: string): Promise<string | undefined> {
  const html = await fetch(`${url}/`, { headers: BOT }).then((r) => r.text());
  if (html.includes('Er zijn nog geen aanmeldingen.')) return '0';
  return /Er (?:is|zijn) (\d+) aanmelding/.exec(html)?.[1];
}

/**
 * Posts every form at once while the database is gone, then again once it is back.
 * @param outage takes the database away; returns what brings it back
 */
async function postThroughOutage(bundle: RunningBundle, outage: () => Promise<() => Promise<void>>, countWhileGone: (url: string) => Promise<void>) {
  const before = Number(await shownCount(bundle.url));
  const sessions: FormSession[] = await Promise.all(Array.from({ length: POSTS }, () => openForm(bundle, '/aanmelden')));
  const pid = bundle.server.child.pid;
  let restore: (() => Promise<void>) | undefined;
  try {
    restore = await outage();
    const refused = await Promise.all(sessions.map((s, i) => postForm(bundle, '/aanmelden', { ...VALID, naam: `Deelnemer ${i}` }, s)));
    for (const res of refused) {
      assert.equal(res.status, 503);
      assert.equal(textOf(res.body, 'title'), '503: An unexpected error has occurred');
    }
    await countWhileGone(bundle.url);
  } finally {
    await restore?.();
  }
  assert.equal(await shownCount(bundle.url), String(before), 'nothing half-written');
  // The same forms, sent again (the visitor's retry), each go through once.
  const accepted = await Promise.all(sessions.map((s, i) => postForm(bundle, '/aanmelden', { ...VALID, naam: `Deelnemer ${i}` }, s)));
  for (const res of accepted) assert.equal(res.status, 303);
  const again = await postForm(bundle, '/aanmelden', { ...VALID, naam: 'Deelnemer 0' }, sessions[0]);
  assert.equal(again.headers.location, accepted[0]!.headers.location, 'a repeat is the same registration');
  assert.equal(await shownCount(bundle.url), String(before + POSTS));
  assert.equal(bundle.server.child.pid, pid);
  assert.equal(bundle.server.child.exitCode, null, 'recovered without a restart');
  assert.doesNotMatch(bundle.server.output(), /"level":60/, 'no fatal log');
}

describe('the database gone for a moment', { timeout: 120_000 }, () => {
  describe('PostgreSQL stopped and started', () => {
    const project = useProjectCopy({ files: BUNDLE_FILES });
    const cluster = usePostgres();
    const start = async () => startBundle(project.dir, { DATABASE_URL: await cluster.createDatabase(), FORM_RATE_LIMIT: '1000/1m' });

    it('503 for posts and confirmations, the count not available, then recovery', () =>
      withProcess(start, async (bundle) => {
        const first = await postForm(bundle, '/aanmelden', VALID);
        assert.equal(first.status, 303);
        const confirmation = String(first.headers.location);
        await postThroughOutage(
          bundle,
          async () => {
            await cluster.stop();
            return () => cluster.start();
          },
          async (url) => {
            assert.match(await fetch(`${url}/`, { headers: BOT }).then((r) => r.text()), UNAVAILABLE);
            assert.equal((await fetch(`${url}${confirmation}`)).status, 503);
          },
        );
        assert.equal((await fetch(`${bundle.url}${confirmation}`)).status, 200);
      }));
  });

  describe('the SQLite file made unwritable', { skip: userInfo().uid === 0 ? false : 'needs root (chattr +i)' }, () => {
    // On the project's own file system (a temporary folder may be a tmpfs, which has no chattr).
    const local = useProjectCopy({ files: BUNDLE_FILES, parent: resolve('test-results') });

    it('503 for posts while it cannot be written, the count still shown, then recovery', () =>
      withProcess(() => startBundle(local.dir, { FORM_RATE_LIMIT: '1000/1m' }), async (bundle) => {
        assert.equal((await postForm(bundle, '/aanmelden', VALID)).status, 303);
        // Immutable: not even root may write; SQLite writes go to the write-ahead log first.
        const files = ['eiland.db', 'eiland.db-wal'].map((f) => join(local.dir, 'data', f));
        await postThroughOutage(
          bundle,
          async () => {
            const writable = async () => void (await run('chattr', ['-i', ...files]));
            await run('chattr', ['+i', ...files]).catch(async (error: unknown) => {
              await writable().catch(() => undefined); // one of the two may have been made immutable
              throw error;
            });
            return writable;
          },
          async (url) => {
            assert.doesNotMatch(await fetch(`${url}/`, { headers: BOT }).then((r) => r.text()), UNAVAILABLE);
            assert.ok(await shownCount(url));
          },
        );
      }));
  });
});

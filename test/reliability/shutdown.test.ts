/**
 * Graceful shutdown under load (docs/operations.md §5, §10): SIGTERM while 50 requests are in
 * flight (20 of them form posts) on PostgreSQL; then a rolling restart of two instances behind
 * the reference nginx while users keep browsing and posting.
 */
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { freePort, waitFor, within } from '../helpers/app.js';
import { openForm, postForm, VALID, wirePost } from '../helpers/form.js';
import { startNginx, type TestNginx } from '../helpers/nginx.js';
import { insertsWaiting, lockRegistrations, usePostgres } from '../helpers/postgres.js';
import { BUNDLE_FILES, startBundle, useProjectCopy, withProcess, type RunningBundle } from '../helpers/project.js';
import { openWire, readByServer } from '../helpers/wire.js';

const IN_FLIGHT_GETS = 30;
const IN_FLIGHT_POSTS = 20;
/** deploy/nginx-eiland.conf: how long nginx leaves a failed instance alone. */
const NGINX_FAIL_TIMEOUT_MS = 5000;
/** How long the last connections and the exit may take once nothing holds them (the test asks for 3 s). */
const EXIT_MS = 10_000;

/**
 * A GET on a keep-alive connection of its own; resolves at the response's head (so its
 * keep-alive was announced before any shutdown), with its body and the connection's close to come.
 */
function getStarted(url: string): Promise<{ status: number; body: Promise<string>; closed: Promise<void> }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return new Promise((resolve, reject) => {
    request(url, { agent }, (res) => {
      const closed = new Promise<void>((done) => res.socket.once('close', () => done()));
      res.setEncoding('utf8');
      let body = '';
      res.on('data', (c: string) => (body += c));
      const ended = new Promise<string>((done, fail) => {
        res.on('end', () => done(body));
        res.on('error', fail);
      });
      resolve({ status: res.statusCode ?? 0, body: ended, closed });
    })
      .on('error', reject)
      .end();
  });
}

/** The e-mail addresses of every stored registration. */
async function storedEmails(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<{ email: string }>('SELECT email FROM registrations ORDER BY email')).rows.map((r) => r.email);
  } finally {
    await client.end();
  }
}

describe('graceful shutdown with requests in flight', { timeout: 120_000 }, () => {
  const project = useProjectCopy({ files: BUNDLE_FILES });
  const cluster = usePostgres();

  it('SIGTERM with 50 in flight: each finishes whole, every 303 has its row and no row lacks one, exit 0', async () => {
    const databaseUrl = await cluster.createDatabase();
    // A pool for all 50, so each waits only on the lock below, never for a connection.
    const start = () => startBundle(project.dir, { DATABASE_URL: databaseUrl, FORM_RATE_LIMIT: '1000/1m', DATABASE_POOL_SIZE: '60' });
    await withProcess(start, async (bundle) => {
      let release: (() => Promise<void>) | undefined;
      try {
        const sessions = await Promise.all(Array.from({ length: IN_FLIGHT_POSTS }, () => openForm(bundle, '/aanmelden')));
        // Hold the table: the start page's count and every insert wait, so the requests below are
        // truly in flight (shell sent, bodies read) when the signal comes.
        release = await lockRegistrations(databaseUrl);

        const gets = await Promise.all(Array.from({ length: IN_FLIGHT_GETS }, () => getStarted(`${bundle.url}/`)));
        for (const get of gets) assert.equal(get.status, 200);
        const emails = sessions.map((_, i) => `deelnemer${String(i).padStart(2, '0')}@voorbeeld.nl`);
        const posts = await Promise.all(
          sessions.map((session, i) => {
            const { head, body } = wirePost(bundle.url, session, { ...VALID, email: emails[i]! });
            return openWire(bundle.port, head + body.slice(0, 40), session.from).then((wire) => ({ wire, rest: body.slice(40) }));
          }),
        );
        // The heads are read and the bodies started.
        await readByServer(bundle.port);

        const from = bundle.server.output().length;
        bundle.server.child.kill('SIGTERM');
        await bundle.server.waitFor(/"event":"shutdown_started"/, 5000, from);
        await assert.rejects(fetch(`${bundle.url}/healthz`), 'no new connection is accepted');
        await Promise.all(posts.map(({ wire, rest }) => wire.write(rest)));
        await waitFor(async () => (await insertsWaiting(databaseUrl)) === IN_FLIGHT_POSTS, 10_000);
        await release();
        const released = Date.now();

        for (const get of gets) {
          const html = await get.body;
          assert.match(html, /<\/html>\s*$/, 'the whole streamed page');
          assert.match(html, /aanmelding/i);
        }
        const answers = await Promise.all(posts.map(({ wire }) => wire.response));
        for (const answer of answers) {
          assert.equal(answer.status, 303, answer.body);
          assert.match(answer.headers.location ?? '', /^\/aanmeldingen\/[0-9a-f-]{36}$/);
          assert.equal(answer.headers.connection, 'close');
        }
        // The pages announced keep-alive before the signal: their connections end with them,
        // not 5 s later at the keep-alive time-out, and so does the process.
        await within(Promise.all(gets.map((get) => get.closed)), EXIT_MS, 'the close of the pages\' connections');
        assert.equal(await within(bundle.server.exited, EXIT_MS, 'the exit after SIGTERM'), 0);
        assert.ok(Date.now() - released < 3000, `exited ${Date.now() - released} ms after the last request could finish`);
        assert.match(bundle.server.output(), /"event":"shutdown_complete"/);
        assert.deepEqual(await storedEmails(databaseUrl), emails, 'one row per 303, none without');
      } finally {
        await release?.().catch(() => undefined);
      }
    });
  });

  describe('a rolling restart behind nginx', () => {
    let nginx: TestNginx;
    const bundles: RunningBundle[] = [];
    let databaseUrl: string;

    after(async () => {
      await nginx?.remove();
      await Promise.all(bundles.map((b) => b.server.stop()));
    });

    it('restarts each of two instances in turn under load: no request fails, nothing is lost', async () => {
      databaseUrl = await cluster.createDatabase();
      const nginxPort = await freePort();
      const base = `http://127.0.0.1:${nginxPort}`;
      const env = { DATABASE_URL: databaseUrl, TRUST_PROXY: 'loopback', PUBLIC_ORIGIN: base, FORM_RATE_LIMIT: '100000/1m' };
      bundles.push(...(await Promise.all([0, 1].map(() => startBundle(project.dir, env)))));
      nginx = await startNginx([bundles[0]!.port, bundles[1]!.port], nginxPort);
      const site = { port: nginx.port, url: nginx.base };

      const failures: string[] = [];
      const posted: string[] = [];
      let running = true;
      let sent = 0;
      const user = async (n: number) => {
        for (let i = 0; running; i++) {
          try {
            if (i % 3 === 2) {
              const email = `gebruiker${n}x${i}@voorbeeld.nl`;
              const res = await postForm(site, '/aanmelden', { ...VALID, email });
              if (res.status === 303) posted.push(email);
              else failures.push(`POST ${res.status}`);
            } else {
              const res = await fetch(`${base}${i % 3 === 0 ? '/' : '/over'}`);
              const html = await res.text();
              if (res.status !== 200 || !/<\/html>\s*$/.test(html)) failures.push(`GET ${res.status}`);
            }
          } catch (error) {
            failures.push(`network: ${(error as Error).message}`);
          }
          sent++;
        }
      };
      const users = Array.from({ length: 12 }, (_, n) => user(n));
      try {
        // Every user under way: two answers each, on average.
        await waitFor(() => sent >= 2 * users.length, 10_000);
        // The README's rolling restart, each instance in turn: SIGTERM, its exit 0, start it again
        // on its port, and wait until nginx sends it traffic again (it logs requests; nginx tries
        // a failed instance again after fail_timeout) before the next.
        for (const index of [0, 1]) {
          const old = bundles[index]!;
          old.server.child.kill('SIGTERM');
          assert.equal(await old.server.exited, 0);
          const restarted = await startBundle(project.dir, { ...env, PORT: String(old.port) });
          bundles[index] = restarted;
          // 20 request lines, whatever comes between them (the e-mails of the posts it answers).
          await restarted.server.waitFor(/(?:"msg":"request completed"[\s\S]*?){20}/, NGINX_FAIL_TIMEOUT_MS * 3);
        }
      } finally {
        running = false; // the users stop also when a step above failed
        await Promise.all(users);
      }

      assert.ok(sent > 100, `load was applied (${sent} requests)`);
      assert.deepEqual(failures, [], `${failures.length} of ${sent} failed; nginx: ${await nginx.errorLog()}`);
      assert.ok(posted.length > 20, `${posted.length} posts`);
      assert.deepEqual(await storedEmails(databaseUrl), posted.sort(), 'one row per 303, none without');
    });
  });
});

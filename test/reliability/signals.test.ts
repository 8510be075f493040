/**
 * Stop signals as process managers and terminals send them (docs/operations.md §5, §10): under
 * `npm start`, a signal to the process group reaches the server twice (once from the sender,
 * once forwarded by npm); a process manager may also repeat one. Whatever the sequence, a
 * registration post in flight gets its 303, its row is stored, the drain completes, the log is
 * written in order to its last line (`shutdown_complete`), and the exit code is 0.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { freePort, waitFor, within } from '../helpers/app.js';
import { openForm, VALID, wirePost } from '../helpers/form.js';
import { npmStart, SOURCES, startBundle, useProjectCopy, withProcess, type WatchedProcess } from '../helpers/project.js';
import { openWire, readByServer, type WireRequest } from '../helpers/wire.js';

/** The sources and `dist/`: `npm start` in the copy need not compress every asset again. */
const FILES = [...SOURCES, 'dist'];
/** How long the drain and exit may take once the post is answered (the server bounds its drain at 10 s). */
const EXIT_MS = 15_000;

/** The registrations stored with this e-mail address in the copy's embedded database. */
function storedWith(dir: string, email: string): number {
  const db = new Database(join(dir, 'data', 'eiland.db'), { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM registrations WHERE email = ?').get(email) as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Whether a signal sent to a process waits to be delivered to it (`SigPnd`, `ShdPnd` in /proc). */
function pending(pid: number, signal: NodeJS.Signals): boolean {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const bit = 1n << BigInt(constants.signals[signal] - 1);
  return ['SigPnd', 'ShdPnd'].some((field) => (BigInt(`0x${new RegExp(`^${field}:\\s*([0-9a-f]+)$`, 'm').exec(status)![1]}`) & bit) !== 0n);
}

/** Opens the form, then sends a post's head and half its body: a post in flight. */
async function postInFlight(port: number, email: string): Promise<{ wire: WireRequest; finish(): Promise<void> }> {
  const url = `http://127.0.0.1:${port}`;
  const session = await openForm({ port }, '/aanmelden');
  const { head, body } = wirePost(url, session, { ...VALID, email });
  const half = Math.floor(body.length / 2);
  const wire = await openWire(port, head + body.slice(0, half), session.from);
  return { wire, finish: () => wire.write(body.slice(half)) };
}

/**
 * Sends signals that reach node more than once, then checks the post in flight ends in a stored
 * 303 and a clean exit.
 */
async function survives(server: WatchedProcess, dir: string, port: number, email: string, send: () => Promise<void>): Promise<void> {
  const post = await postInFlight(port, email);
  await readByServer(port); // the head is read and the body started
  const from = server.output().length;
  await send();
  await server.waitFor(/"event":"shutdown_started"/, 5000, from);
  // Node logs a repeated signal where it handles it: once the line is out, the repeat has had its
  // chance to do harm, with the post still in flight.
  await server.waitFor(/"event":"shutdown_signal_repeated"/, 5000, from);
  await post.finish();
  const answer = await post.wire.response;
  assert.equal(answer.status, 303, `the post in flight is answered: ${answer.body}`);
  assert.match(answer.headers.location ?? '', /^\/aanmeldingen\/[0-9a-f-]{36}$/);
  assert.equal(await within(server.exited, EXIT_MS, 'the exit after the signals'), 0, `exit code; output:\n${server.output().slice(from)}`);
  const output = server.output().slice(from);
  assertShutdownLogged(output);
  assert.equal(output.match(/"event":"shutdown_started"/g)?.length, 1, 'one shutdown, however many signals');
  assert.equal(storedWith(dir, email), 1, 'the registration is stored');
}

/** The shutdown's lines in order: `shutdown_started` before `shutdown_complete`, and that last of all. */
function assertShutdownLogged(output: string): void {
  const events = output
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { event?: string }).event);
  const started = events.indexOf('shutdown_started');
  assert.ok(started >= 0, 'shutdown_started logged');
  assert.equal(events.indexOf('shutdown_complete'), events.length - 1, `shutdown_complete is the last line: ${events.slice(started).join()}`);
}

describe('stop signals never lose a request', { timeout: 120_000 }, () => {
  const project = useProjectCopy({ files: FILES });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} to the process group of npm start (node gets it from the sender and from npm): the post in flight is stored, exit 0`, () =>
      withProcess(
        () => npmStart(project.dir, { FORM_RATE_LIMIT: '1000/1m' }),
        ({ server, port }) =>
          survives(server, project.dir, port, `groep-${signal.toLowerCase()}@voorbeeld.nl`, async () => {
            // npm is held still until node has begun its shutdown, so the copy npm forwards arrives
            // apart, as it does whenever npm is the slower of the two (arriving together, the two
            // may be merged by the kernel: a pending signal is not queued twice).
            const npm = server.child.pid!;
            const from = server.output().length;
            process.kill(npm, 'SIGSTOP');
            try {
              process.kill(-npm, signal);
              await server.waitFor(/"event":"shutdown_started"/, 5000, from);
            } finally {
              process.kill(npm, 'SIGCONT');
            }
          }),
        'SIGKILL',
      ));
  }

  const bundle = () => startBundle(project.dir, { FORM_RATE_LIMIT: '1000/1m' });
  /**
   * Sends `first`, then SIGTERM, to node itself: the second as soon as the first has been delivered,
   * since one still pending would take the second in (a pending signal is not queued twice).
   */
  const twoSignals = (server: WatchedProcess, first: NodeJS.Signals) => async () => {
    server.child.kill(first);
    await waitFor(() => !pending(server.child.pid!, first), 5000);
    server.child.kill('SIGTERM');
  };

  it('two SIGTERMs to node itself within 50 ms', () =>
    withProcess(bundle, ({ server, port }) => survives(server, project.dir, port, 'tweemaal@voorbeeld.nl', twoSignals(server, 'SIGTERM')), 'SIGKILL'));

  it('SIGTERM while a log line waits for the thread pool: every line is written, in order, to shutdown_complete', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'eiland-signals-images-'));
    const metricsPort = await freePort();
    /** The sum of a metric's series whose labels match, as the server's metrics listener says it now. */
    const metric = async (name: string, labels: RegExp) => {
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      return text
        .split('\n')
        .filter((line) => line.startsWith(`${name}{`) && labels.test(line))
        .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
    };
    try {
      // One pool thread, held by sharp: the write of the next line waits behind its work.
      const start = () => startBundle(project.dir, { UV_THREADPOOL_SIZE: '1', IMAGE_CACHE_DIR: cache, METRICS_PORT: String(metricsPort) });
      await withProcess(
        start,
        async ({ server, port }) => {
          const hero = readdirSync(join(project.dir, 'dist', 'assets', 'images')).find((name) => name.startsWith('hero-'))!;
          const leaving = new AbortController();
          const image = fetch(`http://127.0.0.1:${port}/_image?url=${encodeURIComponent(`/assets/images/${hero}`)}&w=3840`, { signal: leaving.signal, headers: { Accept: 'image/webp' } });
          await server.waitFor(/"event":"sharp_loaded"/, 5000);
          // The variant is being made: its job holds sharp's slot (the metrics listener needs no pool thread).
          await waitFor(async () => (await metric('eiland_image_jobs', /state="running"/)) === 1, 5000);
          leaving.abort();
          await image.catch(() => undefined);
          // Its close is counted where its request line is logged: written, or waiting to be.
          await waitFor(async () => (await metric('http_request_duration_seconds_count', /status_class="none"/)) === 1, 5000);
          server.child.kill('SIGTERM');
          assert.equal(await within(server.exited, EXIT_MS, 'the exit'), 0);
          const lines = server
            .output()
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => JSON.parse(line) as { time: number; msg: string });
          assert.ok(lines.some((line) => line.msg === 'request aborted'), 'the image request left');
          assert.deepEqual(lines.map((line) => line.time), lines.map((line) => line.time).sort((x, y) => x - y), `written in the order logged: ${lines.map((l) => l.msg).join(', ')}`);
          assertShutdownLogged(server.output());
        },
        'SIGKILL',
      );
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  });

  it('SIGHUP (a closed terminal), then SIGTERM: one drain, the post stored, exit 0', () =>
    withProcess(bundle, ({ server, port }) => survives(server, project.dir, port, 'ophangen@voorbeeld.nl', twoSignals(server, 'SIGHUP')), 'SIGKILL'));
});

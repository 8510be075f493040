/**
 * Graceful shutdown of the server process (docs/operations.md §5): on SIGTERM an in-flight request
 * finishes, new connections are refused, idle and busy keep-alive connections do not hold the
 * exit, and the exit code is 0 — test/fixtures/server-process.ts in a process of its own.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { raw, within } from './helpers/app.js';
import { spawnFixtureServer, startFixtureServer, withProcess } from './helpers/project.js';
import { openWire, readByServer } from './helpers/wire.js';

/** How long an exit after SIGTERM may take here: the drain is bounded at 10 s. */
const EXIT_MS = 15_000;
const SHUTDOWN_STARTED = /"event":"shutdown_started"/;
/** The events a clean shutdown logs, in order. */
const CLEAN = ['server_started', 'shutdown_started', 'shutdown_complete'];

describe('the server process (docs/operations.md §5)', () => {
  it('on SIGTERM lets an in-flight request finish, refuses new ones, exits 0', () =>
    withProcess(startFixtureServer, async ({ server, port, lines }) => {
      assert.equal((await raw(port, '/readyz')).status, 200);
      const slow = await openWire(port, 'GET /proef/traag?ms=800 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      await readByServer(port);
      server.child.kill('SIGTERM');
      await server.waitFor(SHUTDOWN_STARTED, 3000);
      await assert.rejects(raw(port, '/over'), /ECONNREFUSED|ECONNRESET/);
      const answer = await slow.response;
      assert.equal(answer.status, 200);
      assert.match(answer.body, /Traag klaar na 800 ms/);
      assert.equal(await within(server.exited, EXIT_MS, 'the exit after SIGTERM'), 0);
      const events = lines().map((l) => l.event).filter(Boolean);
      assert.deepEqual(events, CLEAN);
    }, 'SIGKILL'));

  it('a request answered at once on a busy keep-alive connection during shutdown does not crash it', () =>
    withProcess(startFixtureServer, async ({ server, port, lines }) => {
      const socket = connect(port, '127.0.0.1');
      await once(socket, 'connect');
      let received = '';
      socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
      socket.on('error', () => {});
      try {
        // A slow post on a keep-alive connection: headers now, body after the SIGTERM.
        await new Promise((resolve) => socket.write('POST /_eiland/client-errors HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n', resolve));
        await readByServer(port);
        server.child.kill('SIGTERM');
        await server.waitFor(SHUTDOWN_STARTED, 3000);
        // The rest of the body, then a request answered synchronously (a 308) on the same connection.
        socket.write('{}GET /over/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
        assert.equal(await within(server.exited, EXIT_MS, 'the exit after SIGTERM'), 0, 'a clean exit, not a crash');
        assert.deepEqual(
          lines().map((l) => l.event).filter(Boolean),
          CLEAN,
        );
        assert.match(received, /^HTTP\/1\.1 \d{3} /, 'the post was answered');
        assert.match(received, /\r\nConnection: close\r\n/i, 'telling the client to go');
      } finally {
        socket.destroy();
      }
    }, 'SIGKILL'));

  it('a SIGTERM that comes while the server starts waits for the start, then shuts it down and exits 0', async () => {
    const server = await spawnFixtureServer({ HOLD_START_UNTIL_SIGNAL: '1' });
    try {
      await server.waitFor(/"event":"start_held"/, 15_000);
      server.child.kill('SIGTERM');
      assert.equal(await within(server.exited, EXIT_MS, 'the exit after SIGTERM'), 0);
      assert.deepEqual(
        server.lines().map((l) => l.event).filter(Boolean),
        ['start_held', ...CLEAN],
      );
    } finally {
      await server.stop('SIGKILL');
    }
  });

  it('is not held up by a connection that never sent a request (a browser opens spare ones)', () =>
    withProcess(startFixtureServer, async ({ server, port }) => {
      const spare = connect(port, '127.0.0.1');
      await once(spare, 'connect');
      spare.on('error', () => {});
      try {
        const started = Date.now();
        server.child.kill('SIGTERM');
        assert.equal(await within(server.exited, EXIT_MS, 'the exit after SIGTERM'), 0);
        // Without closing it, the exit waits for the 10 s headers time-out.
        assert.ok(Date.now() - started < 2000, `exited after ${Date.now() - started} ms`);
      } finally {
        spare.destroy();
      }
    }, 'SIGKILL'));
});

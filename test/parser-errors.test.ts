/**
 * Requests Node's parser rejects never reach Express: each is answered as Node answers it and
 * logged once per connection at warn, with the parser's code and never the bytes sent.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { waitFor, within } from './helpers/app.js';
import { useServer } from './helpers/production-server.js';
import { openWire } from './helpers/wire.js';

/** The real server (its HTTP parser is Node's), with its log lines captured. */
const server = useServer();
const logs = () => server.logs();

describe('requests the HTTP parser rejects', () => {
  const cases: [what: string, bytes: string, status: number, code: string][] = [
    ['a header name with a space', 'GET / HTTP/1.1\r\nHost: a\r\nGeheim Veld: x\r\n\r\n', 400, 'HPE_INVALID_HEADER_TOKEN'],
    ['a request line that is no HTTP', 'GEHEIM-BLA\r\n\r\n', 400, 'HPE_INVALID_METHOD'],
    ['headers over 16 KiB', `GET / HTTP/1.1\r\nHost: a\r\nX-Geheim: ${'g'.repeat(20_000)}\r\n\r\n`, 431, 'HPE_HEADER_OVERFLOW'],
    ['a Content-Length that is no number', 'POST / HTTP/1.1\r\nHost: a\r\nContent-Length: geheim\r\n\r\n', 400, 'HPE_INVALID_CONTENT_LENGTH'],
  ];
  for (const [what, bytes, status, code] of cases) {
    it(`${what}: ${status}, one warn line with ${code} and no payload`, async () => {
      const before = server.lines.length;
      const wire = await openWire(server.port, bytes);
      const response = await within(wire.response, 5000, 'the answer');
      await within(wire.closed, 5000, 'the close of the connection');
      assert.equal(response.status, status);
      assert.equal(response.headers.connection, 'close');
      // The line may reach the log after the answer.
      await waitFor(() => logs().slice(before).some((l) => l.event === 'request_rejected'));
      const rejected = logs().slice(before).filter((l) => l.event === 'request_rejected');
      assert.equal(rejected.length, 1, JSON.stringify(logs().slice(before)));
      assert.equal(rejected[0]!.level, 40);
      assert.equal(rejected[0]!.code, code);
      assert.equal(rejected[0]!.status, status);
      assert.ok(!server.lines.slice(before).some((l) => /geheim/i.test(l)), 'nothing the client sent is logged');
    });
  }

  it('a client that goes away before its head is complete is not logged', async () => {
    const before = server.lines.length;
    const wire = await openWire(server.port, 'GET / HTTP/1.1\r\nHost: a\r\n');
    wire.socket.resetAndDestroy();
    await within(wire.closed, 5000, 'the close of the connection');
    // Then a request the parser rejects, on a connection opened after the reset: the server sees
    // the reset before it reads this one, so once this one's line is there the reset was handled.
    const later = await openWire(server.port, 'GEHEIM-BLA\r\n\r\n');
    await within(later.closed, 5000, 'the close of the later connection');
    await waitFor(() => logs().slice(before).some((l) => l.event === 'request_rejected'));
    assert.deepEqual(logs().slice(before).filter((l) => l.event === 'request_rejected').map((l) => l.code), ['HPE_INVALID_METHOD'], 'the later request only');
  });
});

describe('a GET whose body the parser refuses once the app has taken it (docs/operations.md §2)', () => {
  /** The same server with every render cache hit verified: no fast path, Express answers the hits. */
  const express = useServer({ RENDER_CACHE_VERIFY: '1' });
  const bodies: [what: string, head: string, body: string][] = [
    ['a chunk size that is no number', 'Transfer-Encoding: chunked', 'zz\r\ngeheim\r\n0\r\n\r\n'],
    ['a transfer coding Node does not know', 'Transfer-Encoding: gzip', 'geheim'],
  ];
  for (const [path, running] of [['the fast path', server], ['the Express path', express]] as const) {
    for (const [what, header, body] of bodies) {
      it(`${path}, ${what}: Node's 400, logged as that 400 at warn, without render and without request_rejected`, async () => {
        const reqId = `kapot-${path}-${header}`.replace(/\W+/g, '-');
        // The page is in the render cache: without the body, this GET is a hit.
        const warm = await openWire(running.port, 'GET /over HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
        assert.equal((await within(warm.response, 5000, 'the page')).status, 200);
        const before = running.lines.length;
        // Head and body in one write: the app has the request before the parser reaches the body.
        const bad = await openWire(running.port, `GET /over HTTP/1.1\r\nHost: a\r\nX-Request-Id: ${reqId}\r\n${header}\r\n\r\n${body}`);
        const response = await within(bad.response, 5000, 'the answer');
        await within(bad.closed, 5000, 'the close of the connection');
        assert.equal(response.status, 400);
        assert.equal(response.headers.connection, 'close');
        const lines = () => running.logs().slice(before).filter((l) => l.reqId === reqId);
        await waitFor(() => lines().length > 0, 5000);
        assert.deepEqual(
          lines().map((l) => [l.msg, l.status, l.level, l.route, 'render' in l]),
          [['request completed', 400, 40, '/over', false]],
        );
        assert.deepEqual(running.logs().slice(before).filter((l) => l.event === 'request_rejected'), [], 'one line: the request’s own');
      });
    }
  }
});

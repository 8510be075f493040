/**
 * Requests Node's parser rejects never reach Express: each is answered as Node answers it and
 * logged once per connection at warn, with the parser's code and never the bytes sent.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { within } from './helpers/app.js';
import { useServer } from './helpers/server.js';
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
      // The line is written after the answer: wait for the log to catch up.
      for (let i = 0; i < 50 && server.lines.length === before; i++) await new Promise((r) => setTimeout(r, 10));
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
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(logs().slice(before).filter((l) => l.event === 'request_rejected'), []);
  });
});

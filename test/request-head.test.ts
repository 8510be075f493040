/**
 * The request head on the real server (docs/filter.md §9, docs/operations.md §6): every header
 * line reaches the Host check, however many come before it, and a head too large is a 431; the
 * answer's connection headers are the ones docs/filter.md §4 decides on.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { within } from './helpers/app.js';
import { useServer } from './helpers/production-server.js';
import { openWire } from './helpers/wire.js';

const server = useServer();

/** Sends a request head as written, and reads the answer off the wire. */
async function send(head: string) {
  const wire = await openWire(server.port, head);
  const response = await within(wire.response, 5000, 'the answer');
  wire.socket.destroy();
  return response;
}

/** `GET /over` with `lines` other header lines, then `last`. */
const withLines = (lines: number, last: string) => `GET /over HTTP/1.1\r\nHost: 127.0.0.1\r\n${Array.from({ length: lines }, (_, i) => `X-${i}: y\r\n`).join('')}${last}\r\n\r\n`;

describe('the request head', () => {
  for (const lines of [10, 1021, 1022, 1500]) {
    it(`a second Host after ${lines} other header lines → 400`, async () => {
      const response = await send(withLines(lines, 'Host: evil.example'));
      assert.equal(response.status, 400);
      assert.equal(response.body, 'Bad Request: more than one Host header');
    });
  }

  it('1500 header lines and one Host → 200', async () => {
    assert.equal((await send(withLines(1500, 'X-Laatste: z'))).status, 200);
  });

  it('a head over the size limit, in many lines → 431', async () => {
    assert.equal((await send(withLines(3000, 'Host: evil.example'))).status, 431);
  });
});

describe('the connection headers of an answer (docs/filter.md §4)', () => {
  it('announces the keep-alive time-out, and sends no header no supported browser reads', async () => {
    const response = await send('GET /over HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    assert.equal(response.status, 200);
    assert.equal(response.headers['keep-alive'], 'timeout=5');
    assert.equal(response.headers['x-xss-protection'], undefined);
    assert.equal(response.headers['x-download-options'], undefined);
    assert.equal(response.headers['x-frame-options'], 'DENY');
  });
});

/**
 * RFC 9112 §3.2 on the wire: two `Host` lines, or one with an invalid value, get a 400 and a
 * closed connection, on every path (pages, assets, images), before any path is looked at.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApp, type TestApp } from './helpers/app.js';
import { openWire } from './helpers/wire.js';

let app: TestApp;
before(async () => (app = await startApp()));
after(() => app.close());

/** Sends a request head as written, and reads the answer off the wire. */
async function send(head: string) {
  const wire = await openWire(app.port, `${head}\r\n\r\n`);
  return { response: await wire.response, closed: wire.closed };
}

describe('the Host header (RFC 9112 §3.2)', () => {
  const cases: [what: string, head: string, status: number][] = [
    ['one Host', 'GET /over HTTP/1.1\r\nHost: 127.0.0.1', 200],
    ['two Host lines', 'GET /over HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example', 400],
    ['two Host lines, the same value', 'GET /over HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1', 400],
    ['two Host lines, other case', 'GET /over HTTP/1.1\r\nhost: 127.0.0.1\r\nHOST: evil.example', 400],
    ['two Host lines on an asset', 'GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example', 400],
    ['two Host lines on the image optimizer', 'GET /_image?url=%2Fassets%2Fimages%2Fx.jpg&w=640 HTTP/1.1\r\nHost: a\r\nHost: b', 400],
    ['two Host lines on a post', 'POST /aanmelden HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nContent-Length: 0', 400],
    ['a Host with a space', 'GET /over HTTP/1.1\r\nHost: a b', 400],
    ['a Host with a path', 'GET /over HTTP/1.1\r\nHost: a/b', 400],
    ['a Host with a user', 'GET /over HTTP/1.1\r\nHost: user@a', 400],
    ['an IPv6 literal with a port', 'GET /over HTTP/1.1\r\nHost: [::1]:3000', 200],
    ['a name with a port', 'GET /over HTTP/1.1\r\nHost: eiland.example:8080', 200],
  ];
  for (const [what, head, status] of cases) {
    it(`${what} → ${status}`, async () => {
      const { response, closed } = await send(head);
      assert.equal(response.status, status, response.body);
      if (status === 400) {
        assert.equal(response.headers.connection, 'close');
        assert.equal(response.headers['cache-control'], 'no-store');
        assert.match(response.body, /^Bad Request: (more than one|invalid) Host header$/);
        assert.ok((await closed) >= 0, 'the connection is closed');
      }
    });
  }

  it('logs the refusal as a 400 at warn', async () => {
    await send('GET /over HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nX-Request-Id: twee-hosts');
    const line = app.logs().find((l) => l.reqId === 'twee-hosts' && l.msg === 'request completed');
    assert.equal(line?.status, 400);
    assert.equal(line?.level, 40);
  });
});

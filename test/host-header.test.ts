/**
 * RFC 9112 §3.2 on the wire: two `Host` lines, or one with an invalid value, get a 400 and a
 * closed connection, on every path (pages, assets, images), before any path is looked at.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useApp, within } from './helpers/app.js';
import { openWire } from './helpers/wire.js';

const app = useApp();

/** Sends a request head as written, and reads the answer off the wire. */
async function send(head: string) {
  const wire = await openWire(app.port, `${head}\r\n\r\n`);
  return { response: await within(wire.response, 5000, 'the answer'), closed: wire.closed, socket: wire.socket };
}

describe('the Host header (RFC 9112 §3.2)', () => {
  const refused: [what: string, head: string, message: string][] = [
    ['two Host lines', 'GET /over HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example', 'more than one'],
    ['two Host lines, the same value', 'GET /over HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1', 'more than one'],
    ['two Host lines, other case', 'GET /over HTTP/1.1\r\nhost: 127.0.0.1\r\nHOST: evil.example', 'more than one'],
    ['two Host lines on an asset', 'GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example', 'more than one'],
    ['two Host lines on the image optimizer', 'GET /_image?url=%2Fassets%2Fimages%2Fx.jpg&w=640 HTTP/1.1\r\nHost: a\r\nHost: b', 'more than one'],
    ['two Host lines on a post', 'POST /aanmelden HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nContent-Length: 0', 'more than one'],
    ['a Host with a space', 'GET /over HTTP/1.1\r\nHost: a b', 'invalid'],
    ['a Host with a path', 'GET /over HTTP/1.1\r\nHost: a/b', 'invalid'],
    ['a Host with a user', 'GET /over HTTP/1.1\r\nHost: user@a', 'invalid'],
  ];
  for (const [what, head, message] of refused) {
    it(`${what} → 400`, async () => {
      const { response, closed } = await send(head);
      assert.equal(response.status, 400, response.body);
      assert.equal(response.headers.connection, 'close');
      assert.equal(response.headers['cache-control'], 'no-store');
      assert.equal(response.body, `Bad Request: ${message} Host header`);
      assert.ok((await within(closed, 2000, 'the close of the refused connection')) >= 0, 'the connection is closed');
    });
  }

  const served: [what: string, head: string][] = [
    ['one Host', 'GET /over HTTP/1.1\r\nHost: 127.0.0.1'],
    ['an IPv6 literal with a port', 'GET /over HTTP/1.1\r\nHost: [::1]:3000'],
    ['a name with a port', 'GET /over HTTP/1.1\r\nHost: eiland.example:8080'],
  ];
  for (const [what, head] of served) {
    it(`${what} → 200`, async () => {
      const { response, socket } = await send(head);
      socket.destroy();
      assert.equal(response.status, 200, response.body);
      // The page itself, on a connection that stays open.
      assert.equal(response.headers.connection, 'keep-alive');
      assert.equal(response.headers['cache-control'], 'private, no-cache');
      assert.match(response.body, /<h1>Over deze site<\/h1>/);
    });
  }

  it('logs the refusal as a 400 at warn', async () => {
    await send('GET /over HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nX-Request-Id: twee-hosts');
    const line = app.logs().find((l) => l.reqId === 'twee-hosts' && l.msg === 'request completed');
    assert.equal(line?.status, 400);
    assert.equal(line?.level, 40);
  });
});

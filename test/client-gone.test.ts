/**
 * A client that leaves mid-request (docs/operations.md §2): a post reset right after its head or
 * reset or closed in the middle of its body gets no error line, no 500, no render, no answer and
 * no rate-limit count (docs/forms.md §7); its request line says it was aborted. On the wire, as
 * such a client behaves.
 */
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import Database from 'better-sqlite3';
import { after, describe, it } from 'node:test';
import { CLIENT_ERRORS_PATH } from '../protocol/client-errors.js';
import { siteRoutes } from '../src/routes/pages.js';
import { FORMS } from './fixtures/forms.js';
import { useApp, waitFor, within } from './helpers/app.js';
import { encode, openForm, VALID } from './helpers/form.js';
import type { LogLine } from './helpers/logs.js';
import { tempStorage } from './helpers/temp-storage.js';
import { useServer } from './helpers/production-server.js';
import { openWire } from './helpers/wire.js';

/** The app's database, which the test reads for the rate-limit counters. */
let temp: Awaited<ReturnType<typeof tempStorage>>;
const app = useApp(async () => {
  temp = await tempStorage();
  return { storage: temp.storage };
});
after(async () => {
  await temp.storage.close();
  await temp.remove();
});

/** Every path that takes a post: the forms of the route table, and the client error reports. */
const posted = () => [...siteRoutes(app.storage, { limit: 1, windowMs: 1000 }, 365, FORMS).filter((route) => route.post).map((route) => route.path), CLIENT_ERRORS_PATH];

/** The lines of requests whose ids start with `prefix`. */
const linesOf = (prefix: string): LogLine[] => app.logs().filter((line) => line.reqId?.startsWith(prefix));

/** A post's head as a browser sends it, for a body of `length` bytes. */
function head(path: string, reqId: string, length: number): string {
  const type = path === CLIENT_ERRORS_PATH ? 'text/plain' : 'application/x-www-form-urlencoded';
  return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${app.port}\r\nOrigin: ${app.url}\r\nSec-Fetch-Site: same-origin\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\nX-Request-Id: ${reqId}\r\n\r\n`;
}

describe('a client that leaves mid-request', () => {
  it('posts reset right after their head (25 to each path that takes one) write no error, no 500 and no counter', async () => {
    const paths = posted();
    assert.ok(paths.length >= 3, paths.join());
    for (const path of paths) {
      const prefix = `weg-${path.replace(/\W/g, '')}`;
      for (let i = 0; i < 25; i++) {
        const wire = await openWire(app.port, head(path, `${prefix}-${i}`, 64));
        wire.socket.resetAndDestroy();
        await within(wire.closed, 2000, 'the reset');
      }
      await waitFor(() => linesOf(prefix).length === 25, 5000).catch(() => assert.fail(`${path}: ${JSON.stringify(linesOf(prefix))}`));
      const lines = linesOf(prefix);
      assert.deepEqual(lines.filter((l) => l.level >= 50), [], `${path}: no error line`);
      assert.deepEqual(lines.filter((l) => l.msg !== 'request aborted'), [], `${path}: one line each, the abort`);
      assert.ok(lines.every((l) => l.status === undefined && l.level === 30), `${path}: nothing was sent: no status, at info`);
    }
    assert.deepEqual(app.logs().filter((l) => l.event === 'rate_limit_warning' || l.event === 'render_aborted'), []);
    const rows = new Database(temp.file, { readonly: true });
    try {
      assert.deepEqual(rows.prepare("SELECT key FROM rate_limits WHERE key LIKE '%undefined%'").all(), []);
    } finally {
      rows.close();
    }
  });
});

/** The real server (Node's parser and its clientError answers around the app), for posts cut mid-body. */
const server = useServer();

/** A form's rate-limit count of one client address, as the database holds it (0 when none). */
function countOf(form: string, address: string): number {
  const rows = new Database(server.databaseFile, { readonly: true });
  try {
    const row = rows.prepare('SELECT hits FROM rate_limits WHERE key = ?').get(`posts of the ${form} form:${address}`) as { hits: number } | undefined;
    return row?.hits ?? 0;
  } finally {
    rows.close();
  }
}

describe('a form post its client cuts off in the middle of its body, on the real server', () => {
  const cuts: [how: string, cut: (socket: Socket) => void][] = [
    ['reset', (socket) => socket.resetAndDestroy()],
    // Its side of the connection ended: Node's parser fails the body at its end of stream.
    ['closed', (socket) => socket.end()],
  ];
  for (const [how, cut] of cuts) {
    it(`${how}: one aborted line at info without a status, nothing sent, and its rate-limit count given back`, async () => {
      const session = await openForm(server, '/aanmelden');
      const body = encode({ ...VALID, _csrf: session.token, _submission: session.key });
      const reqId = `half-body-${how}`;
      const head = `POST /aanmelden HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nOrigin: http://127.0.0.1:${server.port}\r\nSec-Fetch-Site: same-origin\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nX-Request-Id: ${reqId}\r\nCookie: ${session.cookie}\r\n\r\n`;
      const wire = await openWire(server.port, head + body.slice(0, 20), session.from);
      // Counted: the post has passed its rate limit, and its body is being read.
      await waitFor(() => countOf('registration', session.from) === 1, 5000);
      cut(wire.socket);
      const lines = () => server.logs().filter((l) => l.reqId === reqId);
      // The line and the count given back both follow the close of the connection.
      await waitFor(() => lines().length > 0 && countOf('registration', session.from) === 0, 5000).catch(() =>
        assert.fail(`${JSON.stringify(lines())}; count ${countOf('registration', session.from)}`),
      );
      assert.deepEqual(
        lines().map((l) => [l.msg, l.status, l.level, l.route, l.render]),
        [['request aborted', undefined, 30, '/aanmelden', undefined]],
      );
      assert.equal((await within(wire.response, 5000, 'the end of the connection')).status, 0, 'nothing was sent');
    });
  }
});

/**
 * A client that leaves mid-request (docs/operations.md §2): a post reset right after its head or
 * in the middle of its body gets no error line, no 500, no render and no rate-limit counter; its
 * request line says it was aborted. On the wire, as such a client behaves.
 */
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { after, describe, it } from 'node:test';
import { CLIENT_ERRORS_PATH } from '../protocol/client-errors.js';
import { siteRoutes } from '../src/routes/pages.js';
import { FORMS } from './fixtures/forms.js';
import { useApp, waitFor, within } from './helpers/app.js';
import { encode, openForm, VALID } from './helpers/form.js';
import type { LogLine } from './helpers/logs.js';
import { tempStorage } from './helpers/temp-storage.js';
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

  it('a form post reset in the middle of its body: one aborted line, no render, no error', async () => {
    const session = await openForm(app, '/aanmelden');
    const body = encode({ ...VALID, _csrf: session.token, _submission: session.key });
    const wire = await openWire(app.port, head('/aanmelden', 'half-body', body.length).replace('\r\n\r\n', `\r\nCookie: ${session.cookie}\r\n\r\n`) + body.slice(0, 20));
    await new Promise((r) => setTimeout(r, 100)); // the head is in, the body under way
    wire.socket.resetAndDestroy();
    await waitFor(() => linesOf('half-body').length > 0, 5000);
    await new Promise((r) => setTimeout(r, 200)); // anything that would follow it
    assert.deepEqual(
      linesOf('half-body').map((l) => [l.msg, l.status, l.level, l.route]),
      [['request aborted', undefined, 30, '/aanmelden']],
    );
  });
});

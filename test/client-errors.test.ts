/**
 * `POST /_eiland/client-errors` (docs/errors.md §6): a browser's error report is logged at error with
 * the page's request id and never its query string; bad reports are refused with their 4xx, and
 * each client is rate-limited.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freshAddress, useApp } from './helpers/app.js';

const app = useApp();

describe('POST /_eiland/client-errors (docs/errors.md §6)', () => {
  const send = (body: string, headers: Record<string, string> = {}, from = freshAddress()) =>
    app.request('/_eiland/client-errors', { method: 'POST', from, headers: { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin', ...headers }, body });
  const report = { message: 'kapot', stack: 'Error: kapot\n    at x (/assets/a.js:1:1)', url: 'http://127.0.0.1/aanmelden?email=geheim@x.nl', island: 'RegistrationForm', requestId: 'pagina-1' };

  it('logs a report at error with source client and the page’s request id, answers 204', async () => {
    const res = await send(JSON.stringify(report), { 'X-Request-Id': 'beacon-1' });
    assert.equal(res.status, 204);
    const line = app.logs().find((l) => l.reqId === 'beacon-1' && l.event === 'client_error');
    assert.equal(line?.level, 50);
    assert.equal(line?.source, 'client');
    assert.equal(line?.pageRequestId, 'pagina-1');
    assert.equal(line?.island, 'RegistrationForm');
    assert.equal(line?.page, '/aanmelden');
    assert.ok(!app.rawLogs().some((l) => l.includes('geheim@x.nl')), 'no query string in the log');
  });
  it('accepts a beacon sent as text/plain', async () => {
    assert.equal((await send(JSON.stringify(report), { 'Content-Type': 'text/plain;charset=UTF-8' })).status, 204);
  });
  const bad: Array<[what: string, body: string]> = [
    ['not JSON', '{kapot'],
    ['an array', '[]'],
    ['a string', '"x"'],
    ['no message', JSON.stringify({ url: '/' })],
    ['an unknown key', JSON.stringify({ ...report, extra: 1 })],
    ['a message that is not a string', JSON.stringify({ ...report, message: 5 })],
    ['a bad island name', JSON.stringify({ ...report, island: '../x' })],
    // class-transformer overflowed its stack on these once (a 500).
    ['a field nested 2000 arrays deep', JSON.stringify({ ...report, stack: JSON.parse(`${'['.repeat(2000)}${']'.repeat(2000)}`) })],
    ['a key nested 2000 arrays deep', `{"message":"x","url":"/","x":${'['.repeat(2000)}${']'.repeat(2000)}}`],
    ['an object field', JSON.stringify({ ...report, message: { toString: 'x' } })],
    ['a prototype key', '{"message":"x","url":"/","__proto__":{"polluted":"ja"}}'],
  ];
  for (const [what, body] of bad) {
    it(`400 for ${what}`, async () => assert.equal((await send(body)).status, 400));
  }
  it('413 over 8 KiB', async () => assert.equal((await send(JSON.stringify({ ...report, stack: 'x'.repeat(9000) }))).status, 413));
  it('403 cross-site', async () => assert.equal((await send(JSON.stringify(report), { 'Sec-Fetch-Site': 'cross-site' })).status, 403));
  it('405 for GET', async () => assert.equal((await app.request('/_eiland/client-errors')).status, 405));
  it('rate-limits per client (429)', async () => {
    const from = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await send(JSON.stringify(report), {}, from)).status);
    assert.deepEqual(statuses, [...Array(10).fill(204), 429]);
  });
});

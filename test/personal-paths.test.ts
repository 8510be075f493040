/**
 * A path that grants access to personal data is never logged whole (docs/operations.md §2): the id of
 * a confirmation page lets anyone who has it read that person's registration.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MASK, personalPathMask } from '../src/routes/personal-paths.js';
import { useApp } from './helpers/app.js';
import { postForm, UNKNOWN_UUID, VALID } from './helpers/form.js';

describe('personalPathMask', () => {
  const mask = personalPathMask([{ path: '/aanmeldingen/:id', secretParams: ['id'] }, { path: '/over' }]);
  const cases: [path: string, logged: string][] = [
    [`/aanmeldingen/${UNKNOWN_UUID}`, `/aanmeldingen/${MASK}`],
    ['/aanmeldingen/niet-een-uuid', `/aanmeldingen/${MASK}`],
    ['/aanmeldingen', '/aanmeldingen'],
    // Whatever follows the secret, and however the path is spelled (docs/operations.md §2).
    ['/aanmeldingen/a/b', `/aanmeldingen/${MASK}`],
    [`/aanmeldingen/${UNKNOWN_UUID}/extra`, `/aanmeldingen/${MASK}`],
    [`/aanmeldingen//${UNKNOWN_UUID}`, `/aanmeldingen/${MASK}`],
    [`/Aanmeldingen/${UNKNOWN_UUID}`, `/aanmeldingen/${MASK}`],
    [`/%61anmeldingen/${UNKNOWN_UUID}`, `/aanmeldingen/${MASK}`],
    [`/aanmeldingen%2F${UNKNOWN_UUID}`, `/aanmeldingen/${MASK}`],
    [`/aanmeldingen\\${UNKNOWN_UUID}`, `/aanmeldingen/${MASK}`],
    [`/x/../aanmeldingen/./${UNKNOWN_UUID}`, `/x/../aanmeldingen/${MASK}`],
    [`TypeError: x\n    at http://127.0.0.1:3000/aanmeldingen/${UNKNOWN_UUID}:12:7`, `TypeError: x\n    at http://127.0.0.1:3000/aanmeldingen/${MASK}`],
    ['/aanmeldingen/', '/aanmeldingen/'],
    ['/aanmeldingenlijst/a', '/aanmeldingenlijst/a'],
    ['/xaanmeldingen/a', '/xaanmeldingen/a'],
    ['/over', '/over'],
  ];
  for (const [path, logged] of cases) {
    it(`${path} → ${logged}`, () => assert.equal(mask(path), logged));
  }

  it('refuses a secret that is not a parameter of its route', () => {
    assert.throws(() => personalPathMask([{ path: '/over', secretParams: ['id'] }]), /Route "\/over" has no parameter "id" to mask/);
  });

  it('refuses a parameter before the secret: where the secret starts must be fixed text', () => {
    assert.throws(() => personalPathMask([{ path: '/:taal/aanmeldingen/:id', secretParams: ['id'] }]), /has ":taal" before its secret/);
  });
});

describe('confirmation paths in the logs', () => {
  const app = useApp();

  it('the request log and client-error reports mask the id, however the path is written', async () => {
    const posted = await postForm(app, '/aanmelden', { ...VALID, email: 'geheim@voorbeeld.nl' });
    assert.equal(posted.status, 303);
    const location = String(posted.headers.location);
    const id = location.split('/').pop()!;
    const ids = ['bevestiging-1', 'bevestiging-2', 'bevestiging-3', 'bevestiging-4'];
    assert.equal((await app.request(location, { headers: { 'X-Request-Id': ids[0]! } })).status, 200);
    assert.equal((await app.request(`${location}/`, { headers: { 'X-Request-Id': ids[1]! } })).status, 308);
    assert.equal((await app.request(`/%61anmeldingen/${id}?x=1`, { headers: { 'X-Request-Id': ids[2]! } })).status, 308);
    assert.equal((await app.request(`/aanmeldingen/${UNKNOWN_UUID}`, { headers: { 'X-Request-Id': ids[3]! } })).status, 404);
    const report = await app.request('/_eiland/client-errors', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin' },
      body: JSON.stringify({ message: 'Fout', url: `${app.url}${location}?tab=1` }),
    });
    assert.equal(report.status, 204);

    // The 308s are answered before routing: they have no route.
    const routes = ['/aanmeldingen/:id', undefined, undefined, '/aanmeldingen/:id'];
    for (const [i, reqId] of ids.entries()) {
      const line = app.logs().find((l) => l.reqId === reqId && l.msg === 'request completed');
      assert.equal(line?.path, `/aanmeldingen/${MASK}`, reqId);
      assert.equal(line?.route, routes[i], reqId);
    }
    assert.equal(app.logs().find((l) => l.event === 'client_error')?.page, `/aanmeldingen/${MASK}`);
    const all = app.rawLogs().join('\n');
    assert.ok(!all.includes(id), 'the id is in no log line');
    assert.ok(!all.includes(UNKNOWN_UUID), 'nor an unknown one');
  });

  it('masks the id below the confirmation path, in any method, and in every field of a client error report', async () => {
    const posted = await postForm(app, '/aanmelden', { ...VALID, email: 'geheim2@voorbeeld.nl' });
    const location = String(posted.headers.location);
    const id = location.split('/').pop()!;
    const tries: [method: string, path: string][] = [
      ['GET', `${location}/extra`],
      ['POST', `${location}/extra`],
      ['DELETE', `${location}/x/y`],
      ['GET', `/aanmeldingen//${id}`],
      ['GET', `/Aanmeldingen/${id}`],
      ['GET', `/aanmeldingen%2F${id}`],
      ['GET', `/aanmeldingen/${id}/%zz`],
    ];
    for (const [i, [method, path]] of tries.entries()) {
      const res = await app.request(path, { method, headers: { 'X-Request-Id': `onder-${i}` } });
      assert.ok([308, 400, 404].includes(res.status), `${method} ${path}: ${res.status}`);
    }
    for (const url of [`${app.url}/aanmeldingen//${id}`, `${app.url}${location}/x`, `${app.url}/Aanmeldingen/${id}`]) {
      const report = await app.request('/_eiland/client-errors', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin', 'X-Request-Id': 'rapport-onder' },
        body: JSON.stringify({ message: `Fout op ${url}`, stack: `TypeError: Fout\n    at ${url}:3:14`, url }),
      });
      assert.equal(report.status, 204);
    }
    for (const [i] of tries.entries()) {
      const line = app.logs().find((l) => l.reqId === `onder-${i}` && l.msg === 'request completed');
      assert.match(String(line?.path), /\/aanmeldingen\/\[redacted\]$/, `onder-${i}`);
    }
    const reports = app.logs().filter((l) => l.event === 'client_error' && l.reqId === 'rapport-onder');
    assert.equal(reports.length, 3);
    for (const report of reports) {
      assert.equal(report.page, `/aanmeldingen/${MASK}`);
      assert.match(String(report.message), /aanmeldingen\/\[redacted\]$/);
      assert.match(String(report.stack), /aanmeldingen\/\[redacted\]$/);
    }
    assert.ok(!app.rawLogs().join('\n').includes(id), 'the id is in no log line');
  });
});

/**
 * Served over https behind a trusted proxy (docs/filter.md §4, §6): upgrade-insecure-requests, HSTS
 * and `__Host-` Secure cookies only then, the origin from the forwarded host only under
 * TRUST_PROXY, and cookies never logged.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { raw, useApp } from './helpers/app.js';

// Behind a proxy on loopback that terminates TLS (docs/operations.md §1: TRUST_PROXY).
const app = useApp({}, { TRUST_PROXY: 'loopback' });

describe('served over https behind a trusted proxy (docs/filter.md §4, §6)', () => {
  it('adds upgrade-insecure-requests and HSTS, and sets __Host- Secure cookies', async () => {
    const res = await raw(app.port, '/aanmelden', { headers: { 'X-Forwarded-Proto': 'https' } });
    assert.match(String(res.headers['content-security-policy']), /upgrade-insecure-requests/);
    assert.equal(res.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains');
    const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    assert.equal(cookies.length, 2);
    for (const cookie of cookies) {
      assert.match(cookie, /^__Host-eiland\.(sid|csrf)=/);
      assert.match(cookie, /; Secure/);
      assert.match(cookie, /; Path=\//);
      assert.match(cookie, /; HttpOnly/);
    }
  });

  it('over plain http: neither, and cookies without the __Host- prefix', async () => {
    const res = await raw(app.port, '/aanmelden');
    assert.doesNotMatch(String(res.headers['content-security-policy']), /upgrade-insecure-requests/);
    assert.equal(res.headers['strict-transport-security'], undefined);
    for (const cookie of ([] as string[]).concat(res.headers['set-cookie'] ?? [])) {
      assert.match(cookie, /^eiland\.(sid|csrf)=/);
      assert.doesNotMatch(cookie, /Secure/);
    }
  });

  it('takes the origin from the forwarded host only under TRUST_PROXY', async () => {
    const get = await raw(app.port, '/aanmelden', { headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'eiland.example' } });
    const cookie = ([] as string[]).concat(get.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
    const token = /name="_csrf" value="([^"]+)"/.exec(get.body)?.[1] ?? '';
    const post = (origin: string) =>
      raw(app.port, '/aanmelden', {
        method: 'POST',
        headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'eiland.example', Origin: origin, Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `_csrf=${encodeURIComponent(token)}&_submission=3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b&naam=`,
      });
    assert.equal((await post('https://eiland.example')).status, 422);
    assert.equal((await post(app.url)).status, 403);
  });

  it('never logs the cookies of an https request', async () => {
    await raw(app.port, '/over', { headers: { 'X-Forwarded-Proto': 'https', Cookie: '__Host-eiland.sid=GEHEIM-KOEKJE' } });
    assert.ok(!app.rawLogs().some((l) => l.includes('GEHEIM-KOEKJE')));
  });
});

/**
 * PUBLIC_ORIGIN: with it set, another `Host` is a 400 (DNS rebinding) and the cross-site check
 * compares `Origin` with it; probes answer any Host. (Its validation: test/config.test.ts.)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freshAddress, raw, textOf, useApp } from './helpers/app.js';
import { cookiesOf, encode, VALID } from './helpers/form.js';

describe('PUBLIC_ORIGIN', () => {
  const app = useApp({}, { PUBLIC_ORIGIN: 'http://eiland.test, http://www.eiland.test:8080' });

  it('serves the public hosts, and refuses any other Host with 400', async () => {
    assert.equal((await raw(app.port, '/over', { headers: { Host: 'eiland.test' } })).status, 200);
    assert.equal((await raw(app.port, '/over', { headers: { Host: 'www.eiland.test:8080' } })).status, 200);
    for (const host of ['evil.example', `127.0.0.1:${app.port}`, 'eiland.test:8080', 'www.eiland.test']) {
      const res = await raw(app.port, '/over', { headers: { Host: host } });
      assert.equal(res.status, 400, host);
      assert.equal(textOf(res.body, 'title'), '400: Bad Request');
    }
  });

  it('refuses the DNS-rebinding post: Host and Origin both evil.example', async () => {
    const res = await raw(app.port, '/aanmelden', {
      method: 'POST',
      headers: { Host: 'evil.example', Origin: 'http://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: encode(VALID),
    });
    assert.equal(res.status, 400);
  });

  it('compares Origin with the public origins, not with Host', async () => {
    // The form as the public host serves it (its token and cookies).
    const from = freshAddress();
    const form = await raw(app.port, '/aanmelden', { from, headers: { Host: 'eiland.test' } });
    const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(form.body)?.[1] ?? '';
    const s = { from, cookie: cookiesOf(form), token: hidden('_csrf'), key: hidden('_submission') };
    const post = (origin: string) =>
      raw(app.port, '/aanmelden', {
        method: 'POST',
        from: s.from,
        headers: { Host: 'eiland.test', Origin: origin, Cookie: s.cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: encode({ ...VALID, _csrf: s.token, _submission: s.key }),
      });
    assert.equal((await post('http://evil.example')).status, 403);
    assert.equal((await post('http://www.eiland.test:8080')).status, 303, 'another public origin of the site');
  });

  it('lets probes answer any Host (a load balancer asks by address)', async () => {
    assert.equal((await raw(app.port, '/healthz', { headers: { Host: '10.0.0.7:3000' } })).status, 200);
    assert.equal((await raw(app.port, '/readyz', { headers: { Host: '10.0.0.7:3000' } })).status, 200);
  });
});

describe('PUBLIC_ORIGIN behind a trusted proxy (TRUST_PROXY=loopback)', () => {
  const app = useApp({}, { PUBLIC_ORIGIN: 'http://eiland.test', TRUST_PROXY: 'loopback' });

  // The test's requests come from loopback: each is what the trusted proxy would pass on.
  const cases: [what: string, headers: Record<string, string>, status: number][] = [
    ['the public Host, no forwarded headers', { Host: 'eiland.test' }, 200],
    ['the public Host, forwarded as itself', { Host: 'eiland.test', 'X-Forwarded-Host': 'eiland.test', 'X-Forwarded-Proto': 'http' }, 200],
    ['a rebound Host with the public X-Forwarded-Host', { Host: 'evil.example', 'X-Forwarded-Host': 'eiland.test' }, 400],
    ['the public Host with a rebound X-Forwarded-Host', { Host: 'eiland.test', 'X-Forwarded-Host': 'evil.example' }, 400],
    ['the public Host with the public X-Forwarded-Host after a rebound one', { Host: 'eiland.test', 'X-Forwarded-Host': 'evil.example, eiland.test' }, 400],
    ['the public Host forwarded as https, which is not the public origin', { Host: 'eiland.test', 'X-Forwarded-Proto': 'https' }, 400],
  ];
  for (const [what, headers, status] of cases) {
    it(`${what} → ${status}`, async () => {
      const res = await raw(app.port, '/aanmelden', { headers });
      assert.equal(res.status, status);
      if (status === 400) assert.equal(textOf(res.body, 'title'), '400: Bad Request');
    });
  }

  it('refuses the rebound post that names the public host in X-Forwarded-Host', async () => {
    const res = await raw(app.port, '/aanmelden', {
      method: 'POST',
      headers: { Host: 'evil.example', 'X-Forwarded-Host': 'eiland.test', Origin: 'http://evil.example', 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: encode(VALID),
    });
    assert.equal(res.status, 400);
  });
});

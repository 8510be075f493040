/**
 * The error page (docs/errors.md §1–§4): every status with its title, in the order of checks, with
 * nothing internal in the body — in the test app, and in a process of its own with NODE_ENV unset.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { INTERNAL_MESSAGE, testRoutes } from './fixtures/test-routes.js';
import { raw, textOf, useApp, type RawResponse } from './helpers/app.js';
import { startFixtureServer, withProcess } from './helpers/project.js';
import { PAGE_PATHS } from './helpers/site-pages.js';

const app = useApp({ extraRoutes: testRoutes });

function assertErrorPage(res: RawResponse, status: number, title: string): void {
  assert.equal(res.status, status);
  assert.match(String(res.headers['content-type']), /^text\/html/);
  assert.equal(textOf(res.body, 'title'), `${status}: ${title}`);
  assert.equal(textOf(res.body, 'h1'), String(status));
  assert.match(res.body, new RegExp(`<h2 lang="en">${title}</h2>`));
  assert.match(res.body, /<html lang="nl">/);
  assert.match(res.body, /<a href="\/">Terug naar de startpagina<\/a>/);
  assertNoLeak(res);
}

function assertNoLeak(res: RawResponse): void {
  assert.doesNotMatch(res.body, /geheime|secret\.ts|\/srv\/|node_modules|\bat [\w.<>]+ \(|Error:/);
}

/** A same-origin form post with a valid token (cookies and field from a GET of the form). */
async function validPost(body: string | Buffer, extra: Record<string, string> = {}): Promise<RawResponse> {
  const form = await app.request('/proef/formulier');
  const cookie = ([] as string[]).concat(form.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
  const token = /name="_csrf" value="([^"]+)"/.exec(form.body)?.[1] ?? '';
  return app.request('/proef/formulier', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: app.url, ...extra },
    body: typeof body === 'string' ? `_csrf=${encodeURIComponent(token)}&${body}` : body,
  });
}

describe('the error page of every status (docs/errors.md §1–§3)', () => {
  it('400 for malformed percent-encoding', async () => assertErrorPage(await app.request('/%E0%A4%A'), 400, 'Bad Request'));
  it('400 for invalid UTF-8 in the path', async () => assertErrorPage(await app.request('/%C0%AF'), 400, 'Bad Request'));
  it('404 for an unknown path', async () => assertErrorPage(await app.request('/bestaat-niet'), 404, 'This page could not be found'));
  it('404 for a path of the wrong case', async () => assertErrorPage(await app.request('/Over'), 404, 'This page could not be found'));
  it('404 wins over 405 on an unknown path', async () => assertErrorPage(await app.request('/bestaat-niet', { method: 'DELETE' }), 404, 'This page could not be found'));

  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    it(`405 with Allow for ${method} on a page`, async () => {
      const res = await app.request('/over', { method });
      assertErrorPage(res, 405, 'Method Not Allowed');
      assert.equal(res.headers.allow, 'GET, HEAD');
    });
  }
  it('405 with Allow on the health probe', async () => {
    const res = await app.request('/healthz', { method: 'POST' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.allow, 'GET, HEAD');
  });
  it('405 lists POST where a page takes posts', async () => {
    const res = await app.request('/proef/formulier', { method: 'PUT' });
    assert.equal(res.headers.allow, 'GET, HEAD, POST');
  });

  it('HEAD works wherever GET does, without a body', async () => {
    for (const path of [...PAGE_PATHS, '/healthz']) {
      const res = await app.request(path, { method: 'HEAD' });
      assert.equal(res.status, 200, path);
      assert.equal(res.body, '');
    }
  });

  it('403 for a cross-site post (Sec-Fetch-Site)', async () => {
    assertErrorPage(await validPost('tekst=a', { 'Sec-Fetch-Site': 'cross-site' }), 403, 'An unexpected error has occurred');
  });
  it('403 for a post from another Origin', async () => {
    assertErrorPage(await validPost('tekst=a', { Origin: 'http://evil.example' }), 403, 'An unexpected error has occurred');
  });
  it('403 for Origin: null', async () => {
    assertErrorPage(await validPost('tekst=a', { Origin: 'null' }), 403, 'An unexpected error has occurred');
  });
  it('403 for a same-origin post without a valid token', async () => {
    const res = await app.request('/proef/formulier', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: app.url },
      body: '_csrf=forged&tekst=a',
    });
    assertErrorPage(res, 403, 'An unexpected error has occurred');
    assert.ok(app.logs().some((l) => l.event === 'csrf_rejected'));
  });
  it('accepts a same-origin post with its token (303)', async () => {
    const res = await validPost('tekst=a', { 'Sec-Fetch-Site': 'same-origin' });
    assert.equal(res.status, 303);
  });
  it('a spoofed X-Forwarded-Host does not make another origin same-origin', async () => {
    const res = await validPost('tekst=a', { Origin: 'http://evil.example', 'X-Forwarded-Host': 'evil.example' });
    assert.equal(res.status, 403);
  });

  it('413 for a body over 32 KiB', async () => {
    assertErrorPage(await validPost(`tekst=${'a'.repeat(33 * 1024)}`), 413, 'An unexpected error has occurred');
  });
  it('413 comes before the cross-site check', async () => {
    const res = await app.request('/proef/formulier', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'cross-site' },
      body: `tekst=${'a'.repeat(33 * 1024)}`,
    });
    assert.equal(res.status, 413);
  });
  it('400 for a body that does not parse (a gzip body that does not inflate)', async () => {
    const res = await validPost(Buffer.from('geen gzip'), { 'Content-Encoding': 'gzip' });
    assertErrorPage(res, 400, 'Bad Request');
  });
  it('415 for a body in an unsupported charset', async () => {
    const res = await validPost(Buffer.from('tekst=a'), { 'Content-Type': 'application/x-www-form-urlencoded; charset=koi8-z' });
    assertErrorPage(res, 415, 'An unexpected error has occurred');
  });

  it('500 for a loader that throws, with nothing internal in the body', async () => {
    assertErrorPage(await app.request('/proef/kapot'), 500, 'Internal Server Error');
  });
  it('503 for an unavailable dependency', async () => {
    assertErrorPage(await app.request('/proef/onbeschikbaar'), 503, 'An unexpected error has occurred');
  });
  it('a failing Suspense boundary leaks no message into the HTML', async () => {
    const res = await app.request('/proef/grens');
    assert.equal(res.status, 200);
    assertNoLeak(res);
  });
  it('logs the 500 with the error and its stack, at error level', async () => {
    const res = await app.request('/proef/kapot', { headers: { 'X-Request-Id': 'kapot-1' } });
    assert.equal(res.status, 500);
    const line = app.logs().find((l) => l.reqId === 'kapot-1' && l.msg === 'request completed');
    assert.equal(line?.level, 50);
    const err = line?.err as { message: string; stack: string } | undefined;
    assert.equal(err?.message, INTERNAL_MESSAGE);
    assert.match(String(err?.stack), /routes\.tsx/);
  });
});

describe('the error pages of a process with NODE_ENV unset (docs/errors.md §4)', () => {
  it('sends no stack or internal message with NODE_ENV unset', () =>
    withProcess(startFixtureServer, async ({ server, port }) => {
      for (const path of ['/proef/kapot', '/proef/grens', '/proef/onbeschikbaar']) {
        const res = await raw(port, path);
        assert.doesNotMatch(res.body, new RegExp(`${INTERNAL_MESSAGE.slice(0, 12)}|secret\\.ts|\\bat \\S+ \\(|data-msg|data-stck`), path);
      }
      assert.equal(await server.stop('SIGINT'), 0);
    }));
});

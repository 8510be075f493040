/**
 * The request filter (docs/filter.md): where it runs (everything but the excluded paths, exactly),
 * that non-canonical and encoded paths never reach a page unfiltered, that spoofed internal headers
 * change nothing, and what it does: request ids, the CSP and its nonce, the security headers.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { excludedPath } from '../src/filter/excluded.js';
import { useApp, type RawResponse } from './helpers/app.js';

/** The visible effects of the filter (docs/filter.md): all of them, or none. */
function filterRan(res: RawResponse): boolean {
  const marks = [
    res.headers['x-request-id'] !== undefined,
    // The filter's CSP carries a fresh nonce; /_image has its own, `default-src 'none'`.
    String(res.headers['content-security-policy'] ?? '').includes("'nonce-"),
    res.headers['content-language'] === 'nl',
    res.headers['referrer-policy'] === 'strict-origin-when-cross-origin',
  ];
  assert.ok(marks.every(Boolean) || marks.every((m) => !m), `partial filter: ${JSON.stringify(res.headers)}`);
  return marks[0]!;
}

const app = useApp();

describe('the request filter runs exactly where docs/filter.md §1–§2 says', () => {
  const filtered: Array<[path: string, status: number]> = [
    ['/', 200],
    ['/over', 200],
    ['/healthz', 200],
    ['/favicon.icox', 404],
    ['/Favicon.ico', 404],
    ['/assetsx/a.js', 404],
    ['/assets', 404],
    ['/ASSETS/favicon.ico', 404],
    ['/_imagex', 404],
    ['/_Image', 404],
    ['/x/favicon.ico', 404],
    ['/assets%2Ffavicon.ico', 404],
    ['/Over', 404],
    ['/%zz', 400],
    ['/over/', 308],
    ['//evil.example', 308],
  ];
  for (const [path, status] of filtered) {
    it(`filters ${path} (${status})`, async () => {
      const res = await app.request(path);
      assert.equal(res.status, status);
      assert.equal(filterRan(res), true);
    });
  }

  const excluded: Array<[path: string, status: number]> = [
    ['/favicon.ico', 200],
    ['/assets/favicon.ico', 200],
    ['/assets/nope.js', 404],
    ['/assets/images/nope.png', 404],
    ['/_image', 400],
    ['/_image?url=/assets/x.png&w=640', 400],
    ['/_image?url=/assets/images/nope.png&w=640', 404],
  ];
  for (const [path, status] of excluded) {
    it(`does not filter ${path} (${status}), which still gets nosniff`, async () => {
      const res = await app.request(path);
      assert.equal(res.status, status);
      assert.equal(filterRan(res), false);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.doesNotMatch(res.body, /<html/);
    });
  }

  it('logs a request id for excluded paths without sending it', async () => {
    const res = await app.request('/favicon.ico', { headers: { 'X-Request-Id': 'asset-probe-1' } });
    assert.equal(res.headers['x-request-id'], undefined);
    assert.ok(app.logs().some((l) => l.reqId === 'asset-probe-1' && l.msg === 'request completed'));
  });

  it('serves build output as immutable and public files as revalidated', async () => {
    const page = await app.request('/over');
    const css = /href="(\/assets\/styles-[^"]+\.css)"/.exec(page.body)?.[1];
    assert.ok(css);
    const built = await app.request(css);
    assert.equal(built.status, 200);
    assert.match(String(built.headers['cache-control']), /immutable/);
    const icon = await app.request('/favicon.ico');
    assert.equal(icon.headers['cache-control'], 'public, no-cache');
    assert.ok(icon.headers.etag);
  });
});

describe('non-canonical and encoded paths never yield an unfiltered page', () => {
  // None is in canonical form (docs/pages.md §5): each is a 308 to its canonical form on this origin,
  // never a page. The filter answers it (`filtered`), or — for a path under /assets/ — the excluded
  // handler does (docs/filter.md §2), and then it leads to an excluded path again, which never is a page.
  const tricky: Array<[path: string, location: string, filtered: boolean]> = [
    ['/%61ssets/favicon.ico', '/assets/favicon.ico', false],
    ['/assets/../over', '/over', true],
    ['/assets/%2e%2e/over', '/over', true],
    ['/assets/%2E%2E/over', '/over', true],
    ['/assets/..%2fover', '/assets/..%2Fover', false],
    ['/assets/%2e%2e%2fover', '/assets/..%2Fover', false],
    ['/assets%2f..%2fover', '/assets%2F..%2Fover', true],
    ['/assets/..%5cover', '/assets/..%5Cover', false],
    ['/assets/%5c..%5cover', '/assets/%5C..%5Cover', false],
    ['/assets\\..\\over', '/assets%5C..%5Cover', true],
    ['/assets/./../over', '/over', true],
    ['/assets//../over', '/over', true],
    ['//assets/../over', '/over', true],
    ['/favicon.ico/../over', '/over', true],
    ['/_image/../over', '/over', true],
    ['/%5fimage/../over', '/over', true],
    ['http://evil.example/over', '/over', true],
    ['http://evil.example/assets/../over', '/over', true],
    ['http://localhost/assets/%2e%2e/over', '/over', true],
  ];
  for (const [path, location, filtered] of tricky) {
    it(`${path}`, async () => {
      const res = await app.request(path);
      assert.equal(res.status, 308);
      assert.equal(res.headers.location, location);
      assert.equal(res.body, `Permanent Redirect. Redirecting to ${location}`);
      assert.equal(filterRan(res), filtered);
      assert.match(location, /^\/(?![/\\])/, `Location ${location} must stay on this origin`);
      assert.equal(filtered || excludedPath(location) !== undefined, true, `an unfiltered 308 leads only to an excluded path, not ${location}`);
    });
  }

  it('redirects 308 to the canonical path and keeps the query', async () => {
    const res = await app.request('/%61anmelden/?x=1');
    assert.equal(res.status, 308);
    assert.equal(res.headers.location, '/aanmelden?x=1');
  });

  it('never makes //evil.example an off-site Location', async () => {
    const res = await app.request('//evil.example');
    assert.equal(res.status, 308);
    assert.equal(res.headers.location, '/evil.example');
  });
});

describe('spoofed internal headers change nothing', () => {
  const spoofs: Record<string, string> = {
    'x-middleware-subrequest': 'middleware:middleware:middleware:middleware:middleware',
    'x-middleware-prefetch': '1',
    'x-middleware-rewrite': '/over',
    'x-forwarded-host': 'evil.example',
    'x-forwarded-proto': 'https',
    'x-forwarded-for': '10.0.0.1',
    'x-forwarded-prefix': '/assets',
    'x-original-url': '/assets/favicon.ico',
    'x-rewrite-url': '/assets/favicon.ico',
    'x-eiland-internal': '1',
    'x-eiland-skip-filter': '1',
  };
  for (const path of ['/', '/over', '/assets/favicon.ico', '/favicon.ico', '/nope']) {
    it(`${path} answers the same with and without them`, async () => {
      const plain = await app.request(path);
      const spoofed = await app.request(path, { headers: spoofs });
      assert.equal(spoofed.status, plain.status);
      assert.equal(filterRan(spoofed), filterRan(plain));
      assert.equal(spoofed.headers['content-security-policy']?.includes('upgrade-insecure-requests') ?? false, false);
    });
  }
});

describe('what the filter does (docs/filter.md §3–§7)', () => {
  it('keeps a safe incoming request id and replaces an unsafe one', async () => {
    const kept = await app.request('/over', { headers: { 'X-Request-Id': 'abc.DEF_12-3' } });
    assert.equal(kept.headers['x-request-id'], 'abc.DEF_12-3');
    assert.match(kept.body, /<meta name="request-id" content="abc\.DEF_12-3"\/>/);
    for (const bad of ['a b', 'x'.repeat(65), '"><script>', 'a/b', '']) {
      const res = await app.request('/over', { headers: { 'X-Request-Id': bad } });
      assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/, bad);
    }
  });

  it('sends a fresh CSP nonce per response and no unsafe-inline for scripts', async () => {
    const a = await app.request('/');
    const b = await app.request('/');
    const nonce = (r: RawResponse) => /'nonce-([^']+)'/.exec(String(r.headers['content-security-policy']))?.[1];
    assert.ok(nonce(a));
    assert.notEqual(nonce(a), nonce(b));
    const csp = String(a.headers['content-security-policy']);
    assert.match(csp, /script-src [^;]*'nonce-/);
    assert.doesNotMatch(csp, /script-src[^;]*unsafe-inline/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /form-action 'self'/);
    assert.doesNotMatch(csp, /upgrade-insecure-requests/);
    assert.equal(a.headers['x-content-type-options'], 'nosniff');
  });

  it("sends helmet's other headers, but no Cross-Origin-Opener-Policy (docs/filter.md §4)", async () => {
    for (const path of ['/', '/aanmelden', '/bestaat-niet']) {
      const res = await app.request(path);
      assert.equal(res.headers['cross-origin-opener-policy'], undefined, path);
      assert.equal(res.headers['cross-origin-resource-policy'], 'same-origin', path);
      assert.equal(res.headers['origin-agent-cluster'], '?1', path);
      assert.equal(res.headers['x-frame-options'], 'DENY', path);
    }
  });

  it('never repeats a nonce: 128 random bits each, across refills of the random pool', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const res = await app.request('/over');
      const nonce = /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1] ?? '';
      assert.equal(Buffer.from(nonce, 'base64').length, 16, nonce);
      assert.ok(res.body.includes(`nonce="${nonce}"`), "the page's scripts carry the header's nonce");
      seen.add(nonce);
    }
    assert.equal(seen.size, 300);
  });
});

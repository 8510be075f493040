/**
 * `/robots.txt` and `/sitemap.xml` (docs/pages.md §9): made from the route table, absolute on the
 * first PUBLIC_ORIGIN, absent without it; through the request filter like a page.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useApp } from './helpers/app.js';
import { PAGE_PATHS } from './helpers/site-pages.js';
import { siteBuild } from './helpers/test-dist.js';

describe('robots.txt and sitemap.xml with PUBLIC_ORIGIN', () => {
  const app = useApp(siteBuild, { PUBLIC_ORIGIN: 'http://eiland.test, http://www.eiland.test:8080' });
  const get = (path: string, method = 'GET') => app.request(path, { method, headers: { Host: 'www.eiland.test:8080' } });

  it('robots.txt allows the site, keeps crawlers off the confirmations and names the sitemap', async () => {
    const res = await get('/robots.txt');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'public, max-age=3600');
    assert.equal(res.body, 'User-agent: *\nAllow: /\nDisallow: /aanmeldingen/\nDisallow: /beheer\n\nSitemap: http://eiland.test/sitemap.xml\n');
  });

  it('sitemap.xml lists the public pages that may be indexed, absolute on the first origin', async () => {
    // The pages of the route table that do not ask robots to stay away, in the table's order.
    const indexable: string[] = [];
    for (const path of PAGE_PATHS) if (!/<meta name="robots" content="noindex"/.test((await get(path)).body)) indexable.push(path);
    assert.ok(indexable.length > 0 && indexable.length < PAGE_PATHS.length, indexable.join());
    const res = await get('/sitemap.xml');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/xml; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'public, max-age=3600');
    assert.equal(
      res.body,
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        ...indexable.map((p) => `<url><loc>http://eiland.test${p}</loc></url>`),
        '</urlset>',
        '',
      ].join('\n'),
    );
  });

  it('goes through the filter: request id, security headers, the public Host only; HEAD without a body; other methods 405', async () => {
    for (const path of ['/robots.txt', '/sitemap.xml']) {
      const res = await get(path);
      assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/, path);
      assert.match(String(res.headers['content-security-policy']), /default-src 'self'/, path);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', path);
      assert.equal((await app.request(path, { headers: { Host: 'evil.example' } })).status, 400, `${path} for another Host`);
      const head = await get(path, 'HEAD');
      assert.equal(head.status, 200, path);
      assert.equal(head.body, '', path);
      const post = await get(path, 'POST');
      assert.equal(post.status, 405, path);
      assert.equal(post.headers.allow, 'GET, HEAD', path);
    }
  });
});

describe('robots.txt and sitemap.xml without PUBLIC_ORIGIN', () => {
  const app = useApp();

  it('robots.txt names no sitemap, and sitemap.xml is the 404 page', async () => {
    const robots = await app.request('/robots.txt', { headers: { Host: 'eiland.example' } });
    assert.equal(robots.status, 200);
    assert.equal(robots.body, 'User-agent: *\nAllow: /\nDisallow: /aanmeldingen/\nDisallow: /beheer\n');
    const sitemap = await app.request('/sitemap.xml', { headers: { Host: 'eiland.example' } });
    assert.equal(sitemap.status, 404);
    assert.match(sitemap.body, /<title>404: This page could not be found<\/title>/);
  });
});

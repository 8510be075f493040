/**
 * Page metadata (docs/pages.md §8–§9): every page's description; with PUBLIC_ORIGIN the canonical
 * URL and Open Graph, built on the first origin and never on the request's Host; without it none;
 * noindex (meta and X-Robots-Tag) on the confirmation, thank-you and error pages; the description
 * in page data.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freshAddress, useApp, type RawResponse } from './helpers/app.js';
import { cookiesOf, encode, VALID } from './helpers/form.js';
import { page, PAGES } from './helpers/site-pages.js';

/** Every `<meta name|property content>` and `<link rel href>` in the head, in order. */
function headMeta(html: string): Record<string, string> {
  const head = html.slice(0, html.indexOf('</head>'));
  const found: Record<string, string> = {};
  for (const [, key, value] of head.matchAll(/<meta (?:name|property)="([^"]+)" content="([^"]*)"\/>/g)) found[key!] = value!;
  for (const [, rel, href] of head.matchAll(/<link rel="(canonical)" href="([^"]*)"\/>/g)) found[`link:${rel}`] = href!;
  return found;
}

/** The description of each page that may be indexed, from the route table (test/helpers/site-pages.ts). */
const DESCRIPTIONS: Readonly<Record<string, string>> = Object.fromEntries(PAGES.filter((p) => !p.noindex).map((p) => [p.path, p.description]));

/** The pages without parameters that ask not to be indexed, from the route table. */
const NOINDEX: readonly string[] = PAGES.filter((p) => p.noindex).map((p) => p.path);

const OPEN_GRAPH = ['og:type', 'og:locale', 'og:site_name', 'og:title', 'og:description', 'og:url', 'og:image', 'og:image:width', 'og:image:height', 'og:image:alt'];

function assertIndexable(res: RawResponse, path: string): void {
  assert.equal(res.status, 200, path);
  assert.equal(res.headers['x-robots-tag'], undefined, path);
  assert.equal(headMeta(res.body).robots, undefined, path);
}

function assertNoindex(res: RawResponse, what: string): void {
  assert.equal(res.headers['x-robots-tag'], 'noindex', what);
  const meta = headMeta(res.body);
  assert.equal(meta.robots, 'noindex', what);
  assert.equal(meta['link:canonical'], undefined, `${what}: no canonical URL`);
  assert.equal(meta['og:url'], undefined, `${what}: no Open Graph`);
}

describe('page metadata with PUBLIC_ORIGIN', () => {
  const app = useApp({}, { PUBLIC_ORIGIN: 'http://eiland.test, http://www.eiland.test:8080' });

  it('gives every indexable page its description, canonical URL and Open Graph on the first origin, whatever public Host asked', async () => {
    for (const [path, description] of Object.entries(DESCRIPTIONS)) {
      for (const host of ['eiland.test', 'www.eiland.test:8080']) {
        const res = await app.request(`${path}?utm_source=x`, { headers: { Host: host } });
        assertIndexable(res, path);
        const meta = headMeta(res.body);
        assert.equal(meta.description, description, path);
        assert.equal(meta['link:canonical'], `http://eiland.test${path}`, `${path} asked as ${host}: the canonical origin, no query`);
        assert.equal(meta['og:url'], `http://eiland.test${path}`, path);
        assert.equal(meta['og:type'], 'website');
        assert.equal(meta['og:locale'], 'nl_NL');
        assert.equal(meta['og:site_name'], 'Eiland');
        assert.equal(meta['og:title'], /<title>([^<]*)<\/title>/.exec(res.body)?.[1], `${path}: og:title is the page title`);
        assert.equal(meta['og:description'], description, path);
      }
    }
  });

  it('shares the start page with its hero at 1200 pixels wide, an absolute /_image URL that serves it', async () => {
    const meta = headMeta((await app.request('/', { headers: { Host: 'eiland.test' } })).body);
    const image = new URL(meta['og:image']!.replaceAll('&amp;', '&'));
    assert.equal(image.origin, 'http://eiland.test');
    assert.equal(image.pathname, '/_image');
    assert.match(image.searchParams.get('url')!, /^\/assets\/images\/hero-[A-Z0-9]+\.jpg$/);
    assert.equal(image.searchParams.get('w'), '1200');
    assert.equal(image.searchParams.get('q'), '75');
    assert.equal(meta['og:image:width'], '1200');
    assert.equal(meta['og:image:height'], '600');
    assert.equal(meta['og:image:alt'], 'Een getekend Hollands polderlandschap met een molen en sloten bij zonsopkomst');
    // The same URL on this instance, as a link preview fetches it (no WebP in Accept: the source type).
    const served = await app.request(image.pathname + image.search, { headers: { Host: 'eiland.test', Accept: 'image/*' } });
    assert.equal(served.status, 200);
    assert.equal(served.headers['content-type'], 'image/jpeg');
    // Pages without a share image have no og:image.
    assert.equal(headMeta((await app.request('/over', { headers: { Host: 'eiland.test' } })).body)['og:image'], undefined);
  });

  it('marks the confirmation, the pages whose route says noindex (the thank-you pages among them) and error pages noindex, in meta and X-Robots-Tag, without canonical or Open Graph', async () => {
    const from = freshAddress();
    const form = await app.request('/aanmelden', { from, headers: { Host: 'eiland.test' } });
    const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(form.body)?.[1] ?? '';
    const posted = await app.request('/aanmelden', {
      method: 'POST',
      from,
      headers: { Host: 'eiland.test', Origin: 'http://eiland.test', Cookie: cookiesOf(form), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: encode({ ...VALID, _csrf: hidden('_csrf'), _submission: hidden('_submission') }),
    });
    assert.equal(posted.status, 303);
    const confirmation = String(posted.headers.location);
    assert.match(confirmation, /^\/aanmeldingen\/[0-9a-f-]{36}$/);
    assert.ok(NOINDEX.length > 0, 'the thank-you pages at least');
    for (const path of [confirmation, ...NOINDEX]) {
      const res = await app.request(path, { headers: { Host: 'eiland.test' } });
      assert.equal(res.status, 200, path);
      assertNoindex(res, path);
      assert.ok(headMeta(res.body).description, `${path} still describes itself`);
    }
    for (const [path, status] of [['/bestaat-niet', 404], ['/aanmeldingen/geen-uuid', 400]] as const) {
      const res = await app.request(path, { headers: { Host: 'eiland.test' } });
      assert.equal(res.status, status, path);
      assertNoindex(res, path);
      assert.equal(headMeta(res.body).description, undefined, `${path}: an error page has no description`);
    }
  });

  it('carries the description, and X-Robots-Tag where noindex, in page data', async () => {
    const data = async (path: string) => app.request(path, { headers: { Host: 'eiland.test', 'X-Eiland-Data': '1' } });
    const over = await data('/over');
    assert.equal(JSON.parse(over.body).description, DESCRIPTIONS['/over']);
    assert.equal(over.headers['x-robots-tag'], undefined);
    const thanks = await data('/contact/bedankt');
    assert.equal(JSON.parse(thanks.body).description, page('/contact/bedankt').description);
    assert.equal(thanks.headers['x-robots-tag'], 'noindex');
    const missing = await data('/bestaat-niet');
    assert.equal(missing.status, 404);
    assert.equal(JSON.parse(missing.body).description, null);
    assert.equal(missing.headers['x-robots-tag'], 'noindex');
  });
});

describe('page metadata without PUBLIC_ORIGIN', () => {
  const app = useApp();

  it('describes every page but builds no absolute URL from the Host', async () => {
    for (const [path, description] of Object.entries(DESCRIPTIONS)) {
      const res = await app.request(path, { headers: { Host: 'eiland.example' } });
      assertIndexable(res, path);
      const meta = headMeta(res.body);
      assert.equal(meta.description, description, path);
      assert.equal(meta['link:canonical'], undefined, path);
      for (const property of OPEN_GRAPH) assert.equal(meta[property], undefined, `${path}: ${property}`);
      assert.equal(res.body.includes('eiland.example'), false, `${path}: the Host appears nowhere`);
    }
  });

  it('still marks noindex pages', async () => {
    assertNoindex(await app.request('/aanmelden/bedankt'), '/aanmelden/bedankt');
    assertNoindex(await app.request('/bestaat-niet'), '404');
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readManifest } from '../src/assets/manifest.js';
import type { PageData } from '../protocol/page-data.js';
import { raw, startApp, textOf, type TestApp } from './helpers/app.js';
import { openForm, postForm, VALID } from './helpers/form.js';

let app: TestApp;
before(async () => {
  app = await startApp({ countRegistrations: () => new Promise((r) => setTimeout(() => r(4), 100)) });
});
after(() => app.close());

const DATA = { 'X-Eiland-Data': '1' };
const manifest = readManifest('dist/manifest.json');

describe('page data (product.md §7)', () => {
  const pages: Array<[path: string, status: number, route: string | null, kind: 'ssr' | 'static', title: string]> = [
    ['/', 200, '/', 'ssr', 'Start · Eiland'],
    ['/over', 200, '/over', 'static', 'Over deze site · Eiland'],
    ['/voorwaarden', 200, '/voorwaarden', 'static', 'Voorwaarden · Eiland'],
    ['/privacy', 200, '/privacy', 'static', 'Privacyverklaring · Eiland'],
    ['/aanmelden', 200, '/aanmelden', 'ssr', 'Aanmelden · Eiland'],
    ['/aanmelden/bedankt', 200, '/aanmelden/bedankt', 'static', 'Bedankt voor je aanmelding · Eiland'],
    ['/bestaat-niet', 404, null, 'static', '404: This page could not be found'],
    ['/aanmeldingen/123', 400, '/aanmeldingen/:id', 'ssr', '400: Bad Request'],
  ];
  for (const [path, status, route, kind, title] of pages) {
    it(`${path}: JSON with the marker and the same status as its HTML (${status})`, async () => {
      const html = await raw(app.port, path);
      const res = await raw(app.port, path, { headers: DATA });
      assert.equal(res.status, html.status);
      assert.equal(res.status, status);
      assert.equal(res.headers['x-eiland-data'], '1');
      assert.match(String(res.headers['content-type']), /^application\/json/);
      for (const r of [html, res]) {
        assert.match(String(r.headers.vary), /X-Eiland-Data/);
        assert.equal(r.headers['cache-control'], html.headers['cache-control']);
      }
      const data = JSON.parse(res.body) as PageData;
      assert.deepEqual(Object.keys(data), ['buildId', 'route', 'kind', 'status', 'title', 'props', 'html', 'islands', 'assets']);
      assert.equal(data.buildId, manifest.buildId);
      assert.equal(data.route, route);
      assert.equal(data.kind, kind);
      assert.equal(data.status, status);
      assert.equal(data.title, title);
      assert.equal(data.title, textOf(html.body, 'title'));
      // The complete <main> content: what the HTML page has inside <main>.
      const main = /<main id="inhoud" tabindex="-1">([\s\S]*)<\/main>/.exec(html.body)?.[1];
      if (!html.body.includes('<!--$?-->') && !html.body.includes('data-island')) assert.equal(data.html, main);
      assert.ok(data.assets.includes(manifest.styles));
    });
  }

  it('renders the start page complete: the count, not the fallback, and resolved props', async () => {
    const data = JSON.parse((await raw(app.port, '/', { headers: DATA })).body) as PageData;
    assert.match(data.html, /Er zijn 4 aanmeldingen\./);
    assert.doesNotMatch(data.html, /nog niet bekend|<template|<script/);
    assert.deepEqual(data.props, { registrations: 4 });
  });

  it('lists the islands of a page with their chunks, and its assets', async () => {
    const data = JSON.parse((await raw(app.port, '/aanmelden', { headers: DATA })).body) as PageData;
    assert.deepEqual(data.islands, [{ name: 'RegistrationForm', ...manifest.islands.RegistrationForm! }]);
    assert.deepEqual(data.assets, manifest.routes['/aanmelden']!.assets);
    assert.match(data.html, /data-island="RegistrationForm"/);
  });

  it('gives the confirmation page only the masked address in its props', async () => {
    const res = await postForm(app, { ...VALID, email: 'anna.geheim@voorbeeld.nl' }, await openForm(app));
    const data = JSON.parse((await raw(app.port, String(res.headers.location), { headers: DATA })).body) as PageData;
    assert.equal(data.props.email, 'a***@voorbeeld.nl');
    assert.doesNotMatch(JSON.stringify(data), /anna\.geheim/);
  });

  it('keeps a redirect a real redirect with Location', async () => {
    const res = await raw(app.port, '/over/', { headers: DATA });
    assert.equal(res.status, 308);
    assert.equal(res.headers.location, '/over');
    const post = await postForm(app, VALID, undefined, DATA);
    assert.equal(post.status, 303);
    assert.match(String(post.headers.location), /^\/aanmeldingen\//);
  });
});

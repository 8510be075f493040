/**
 * Page data (docs/navigation.md §1): the JSON a client navigation asks for with `X-Eiland-Data: 1` — the
 * same status, title and complete `<main>` as the HTML page, its islands and assets, and real
 * redirects.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readManifest } from '../src/assets/manifest.js';
import type { PageData } from '../protocol/page-data.js';
import type { RouteKind } from '../protocol/routes.js';
import { textOf, useApp } from './helpers/app.js';
import { openForm, postForm, VALID } from './helpers/form.js';
import { PAGES } from './helpers/site-pages.js';
import { siteBuild } from './helpers/test-dist.js';

const app = useApp(() => ({ ...siteBuild(), countRegistrations: () => new Promise((r) => setTimeout(() => r(4), 100)) }));

const DATA = { 'X-Eiland-Data': '1' };
const manifest = readManifest('dist/manifest.json');

/** The User-Agent of a crawler: it gets the whole document at once (docs/streaming.md §1), nothing streamed. */
const WHOLE = { 'User-Agent': 'Googlebot/2.1' };

/** The content of a page's `<main>`. */
const mainOf = (html: string) => /<main id="inhoud" tabindex="-1">([\s\S]*)<\/main>/.exec(html)?.[1];

/** The image preloads a page hoists into its `<head>` (a priority image in its `<main>`). */
const imagePreloadsOf = (html: string) => (html.slice(0, html.indexOf('</head>')).match(/<link rel="preload" as="image"[^>]*>/g) ?? []).join('');

/** HTML with its per-render values (the form's CSRF token and submission key) set aside. */
const perRenderAside = (html: string) => html.replace(/("csrfToken":"|"submissionKey":"|name="_csrf" value="|name="_submission" value=")[^"]*/g, '$1…');

describe('page data (docs/navigation.md §1)', () => {
  // `streams`: the HTML page streams its <main> (a Suspense boundary still pending in the shell),
  // so only the whole document, as a crawler gets it, has the content the page data has. Here
  // that is the start page, whose count is slow (above).
  type Row = [path: string, status: number, route: string | null, kind: RouteKind, title: string, streams: boolean];
  const pages: Row[] = [
    // Every page of the route table (test/helpers/site-pages.ts), then two error pages.
    ...PAGES.map(({ path, kind, title }): Row => [path, 200, path, kind, title, path === '/']),
    ['/bestaat-niet', 404, null, 'static', '404: This page could not be found', false],
    ['/aanmeldingen/123', 400, '/aanmeldingen/:id', 'ssr', '400: Bad Request', false],
  ];
  for (const [path, status, route, kind, title, streams] of pages) {
    it(`${path}: JSON with the marker and the same status as its HTML (${status})`, async () => {
      const html = await app.request(path);
      const res = await app.request(path, { headers: DATA });
      assert.equal(res.status, html.status);
      assert.equal(res.status, status);
      assert.equal(res.headers['x-eiland-data'], '1');
      assert.match(String(res.headers['content-type']), /^application\/json/);
      for (const r of [html, res]) {
        assert.match(String(r.headers.vary), /X-Eiland-Data/);
        assert.equal(r.headers['cache-control'], html.headers['cache-control']);
      }
      const data = JSON.parse(res.body) as PageData;
      assert.deepEqual(Object.keys(data), ['buildId', 'route', 'kind', 'status', 'title', 'description', 'props', 'html', 'islands', 'assets']);
      assert.equal(data.buildId, manifest.buildId);
      assert.equal(data.route, route);
      assert.equal(data.kind, kind);
      assert.equal(data.status, status);
      assert.equal(data.title, title);
      assert.equal(data.title, textOf(html.body, 'title'));
      // The description of the HTML page's head (docs/pages.md §8), null where it has none.
      assert.equal(data.description, /<meta name="description" content="([^"]*)"/.exec(html.body)?.[1] ?? null);
      assert.equal(data.description === null, status !== 200, 'only error pages have none');
      // The complete <main> content: what the whole document has inside <main> (its priority image
      // preloaded in place of the <head>); the HTML page has the same unless it streams.
      const whole = await app.request(path, { headers: WHOLE });
      assert.equal(perRenderAside(data.html), perRenderAside(imagePreloadsOf(whole.body) + mainOf(whole.body)!));
      assert.equal(perRenderAside(mainOf(html.body)!) === perRenderAside(mainOf(whole.body)!), !streams, streams ? 'the HTML page streams its <main>' : 'the HTML page has the whole <main>');
      assert.ok(data.assets.includes(manifest.styles));
    });
  }

  it('renders the start page complete: the count, not the fallback, and resolved props', async () => {
    const data = JSON.parse((await app.request('/', { headers: DATA })).body) as PageData;
    assert.match(data.html, /Er zijn 4 aanmeldingen\./);
    assert.doesNotMatch(data.html, /nog niet bekend|<template|<script/);
    assert.deepEqual(data.props, { registrations: 4 });
  });

  it('lists the islands of a page with their chunks, and its assets', async () => {
    const data = JSON.parse((await app.request('/aanmelden', { headers: DATA })).body) as PageData;
    assert.deepEqual(data.islands, [{ name: 'RegistrationForm', ...manifest.islands.RegistrationForm! }]);
    assert.deepEqual(data.assets, manifest.routes['/aanmelden']!.assets);
    assert.match(data.html, /data-island="RegistrationForm"/);
  });

  it('gives the confirmation page only the masked address in its props', async () => {
    const res = await postForm(app, '/aanmelden', { ...VALID, email: 'anna.geheim@voorbeeld.nl' }, await openForm(app, '/aanmelden'));
    const data = JSON.parse((await app.request(String(res.headers.location), { headers: DATA })).body) as PageData;
    assert.equal(data.props.email, 'a***@voorbeeld.nl');
    assert.doesNotMatch(JSON.stringify(data), /anna\.geheim/);
  });

  it('keeps a redirect a real redirect with Location', async () => {
    const res = await app.request('/over/', { headers: DATA });
    assert.equal(res.status, 308);
    assert.equal(res.headers.location, '/over');
    const post = await postForm(app, '/aanmelden', VALID, undefined, DATA);
    assert.equal(post.status, 303);
    assert.match(String(post.headers.location), /^\/aanmeldingen\//);
  });
});

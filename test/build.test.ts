/**
 * The client build and how it is served (docs/islands.md §4): every output content-hashed with a .br
 * and a .gz twin, a manifest naming each route's assets, the twin served by Accept-Encoding, and
 * pages that carry the island marker, its chunk and the modules loaded after the first paint.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { readManifest } from '../src/assets/manifest.js';
import { useApp } from './helpers/app.js';
import { siteBuild } from './helpers/test-dist.js';

describe('the build (docs/islands.md §4)', () => {
  const manifest = readManifest('dist/manifest.json');

  it('writes every output with a .br and a .gz twin holding the same bytes', () => {
    const files = [manifest.styles, manifest.runtime.file, ...manifest.runtime.imports, ...Object.values(manifest.islands).flatMap((i) => [i.file, ...i.imports]), manifest.url];
    for (const url of new Set(files)) {
      const original = readFileSync(`dist${url}`);
      assert.deepEqual(brotliDecompressSync(readFileSync(`dist${url}.br`)), original, url);
      assert.deepEqual(gunzipSync(readFileSync(`dist${url}.gz`)), original, url);
    }
  });

  it('names every output by its content hash, and the manifest too', () => {
    assert.match(manifest.url, new RegExp(`^/assets/manifest-${manifest.buildId}\\.json$`));
    assert.deepEqual(JSON.parse(readFileSync(`dist${manifest.url}`, 'utf8')), manifest);
    assert.match(manifest.islands.RegistrationForm!.file, /^\/assets\/RegistrationForm-[A-Z0-9]{8}\.js$/);
  });

  it('gives each route its kind and assets: island chunks only where islands are', () => {
    assert.deepEqual(manifest.routes['/over']?.assets, [manifest.styles]);
    assert.equal(manifest.routes['/aanmelden']?.kind, 'ssr');
    assert.ok(manifest.routes['/aanmelden']?.assets.includes(manifest.islands.RegistrationForm!.file));
    assert.ok(manifest.routes['/aanmelden']?.assets.includes(manifest.runtime.file));
  });

  it('refuses a missing manifest with the command to run', () => {
    assert.throws(() => readManifest(join(tmpdir(), 'eiland-nope', 'manifest.json')), /missing or unreadable: run "npm run build" first/);
  });
});

describe('serving the build', () => {
  const app = useApp(siteBuild);
  it('serves the .br twin for Accept-Encoding br, .gz for gzip, the original otherwise, with Vary', async () => {
    const manifest = readManifest('dist/manifest.json');
    const url = manifest.runtime.file;
    const br = await app.request(url, { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.match(String(br.headers.vary), /Accept-Encoding/);
    assert.match(String(br.headers['content-type']), /javascript/);
    assert.match(String(br.headers['cache-control']), /immutable/);
    const gz = await app.request(url, { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    const plain = await app.request(url);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.body, readFileSync(`dist${url}`, 'utf8'));
  });

  it('serves the licence notices beside the bundles that carry packages, and none in the JavaScript (docs/islands.md §4)', async () => {
    const manifest = readManifest('dist/manifest.json');
    // React is in a module the islands import: its notices are beside that module.
    const answers = await Promise.all(Object.values(manifest.islands).flatMap((island) => [island.file, ...island.imports]).map((url) => app.request(`${url}.LEGAL.txt`)));
    const notices = answers.filter((a) => a.status === 200).map((a) => a.body).join('\n');
    assert.match(notices, /react-dom/);
    assert.match(notices, /MIT/);
    for (const file of readdirSync('dist/assets').filter((f) => f.endsWith('.js'))) assert.doesNotMatch(readFileSync(`dist/assets/${file}`, 'utf8'), /\/\*!/, file);
  });

  it('answers every variant of an asset with the same Content-Type and Last-Modified (docs/pages.md §2)', async () => {
    const manifest = readManifest('dist/manifest.json');
    for (const url of [manifest.runtime.file, manifest.styles]) {
      const variants = await Promise.all(['br', 'gzip', 'identity'].map((encoding) => app.request(url, { headers: { 'Accept-Encoding': encoding } })));
      assert.deepEqual(
        variants.map((v) => v.headers['content-encoding']),
        ['br', 'gzip', undefined],
      );
      const [first] = variants;
      assert.match(String(first!.headers['content-type']), /^(text\/javascript|text\/css); charset=utf-8$/, url);
      assert.match(String(first!.headers['last-modified']), /GMT$/, url);
      for (const v of variants) {
        assert.equal(v.headers['content-type'], first!.headers['content-type'], `${url} ${v.headers['content-encoding']}`);
        assert.equal(v.headers['last-modified'], first!.headers['last-modified'], `${url} ${v.headers['content-encoding']}`);
      }
    }
  });

  it("keeps React out of the island runtime and the islands' own modules: in a module of its own that each island imports, listed with its imports for preloading", () => {
    const manifest = readManifest('dist/manifest.json');
    const text = (url: string) => readFileSync(join('dist', url), 'utf8');
    // React's element tag, in every build of react (and so of react-dom's chunk).
    const REACT = 'react.transitional.element';
    for (const url of [manifest.runtime.file, ...manifest.runtime.imports]) assert.ok(!text(url).includes(REACT), `the runtime loads no React: ${url}`);
    assert.ok(text(manifest.runtime.file).length < 4096, `the runtime is small: ${text(manifest.runtime.file).length} bytes`);
    assert.ok(Object.keys(manifest.islands).length > 0);
    for (const [name, island] of Object.entries(manifest.islands)) {
      assert.ok(!text(island.file).includes(REACT), `${name}'s own module holds no React`);
      assert.ok(manifest.react && island.imports.includes(manifest.react), `React's module is among what ${name} imports`);
    }
    assert.ok(manifest.react && text(manifest.react).includes(REACT));
  });

  it('renders the island marker with name, id, trigger and chunk, its props only where it has some, and lists its modules for after the first paint', async () => {
    const manifest = readManifest('dist/manifest.json');
    const page = await app.request('/aanmelden');
    const marker = /<div data-island="RegistrationForm"[^>]*>/.exec(page.body)?.[0] ?? '';
    assert.match(marker, /data-island-id="i1"/);
    assert.match(marker, /data-trigger="interaction"/);
    assert.match(marker, new RegExp(`data-src="${manifest.islands.RegistrationForm!.file}"`));
    // A fresh form's props are all in its markup (docs/forms.md §5): no props script.
    assert.match(page.body, new RegExp(`${marker}<div data-island-root="">`));
    assert.doesNotMatch(page.body, /data-island-props/);
    // The island runtime and what it needs are loaded by the router after the first paint: listed, not requested by the HTML.
    const listed = /<meta name="eiland-islands" content="([^"]+)"\/>/.exec(page.body)?.[1]?.split(' ');
    assert.deepEqual(listed?.slice(0, 1), [manifest.runtime.file]);
    for (const url of [manifest.islands.RegistrationForm!.file, manifest.react!, ...manifest.runtime.imports]) assert.ok(listed?.includes(url), url);
    assert.doesNotMatch(page.body, /modulepreload|eiland-islands-[^"]*\.js"[^>]*><\/script>/);
    assert.match(page.body, new RegExp(`<script type="module" src="${manifest.router.file}" nonce="[^"]+" fetchPriority="low" async=""></script>`));
    assert.match(page.body, new RegExp(`<meta name="eiland-manifest" content="${manifest.url}"/>`));
  });
});

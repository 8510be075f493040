import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { IsNotEmpty, IsPositive } from 'class-validator';
import { browserRules } from '../src/forms/browser-rules.js';
import { RegistrationDto } from '../src/forms/registration.js';
import { readManifest } from '../src/assets/manifest.js';
import { serializeIslandProps } from '../protocol/islands.js';
import { freshAddress, raw, startApp, type TestApp } from './helpers/app.js';
import { openForm, postForm, VALID } from './helpers/form.js';

describe('island props on the wire (product.md §5)', () => {
  it('escapes <, >, &, U+2028 and U+2029, and parses back to the same value', () => {
    const props = { text: '</script><!--<script>alert(1)</script>', amp: 'a & b > c', ls: 'x\u2028y\u2029z', nested: [{ a: 1.5, b: null, c: true }] };
    const json = serializeIslandProps('Proef', props);
    assert.doesNotMatch(json, /[<>&\u2028\u2029]/);
    assert.deepEqual(JSON.parse(json), props);
  });

  it('leaves out an absent optional prop, as JSON does', () => {
    assert.equal(serializeIslandProps('Proef', { a: 1, notice: undefined }), '{"a":1}');
  });

  const bad: Array<[props: object, message: string]> = [
    [{ user: { createdAt: new Date(0) } }, 'Island "Proef" prop "user.createdAt" is not plain JSON (Date)'],
    [{ onClick: () => 1 }, 'Island "Proef" prop "onClick" is not plain JSON (function)'],
    [{ tags: new Set(['a']) }, 'Island "Proef" prop "tags" is not plain JSON (Set)'],
    [{ list: [1, Number.NaN] }, 'Island "Proef" prop "list[1]" is not plain JSON (NaN)'],
    [{ list: [undefined] }, 'Island "Proef" prop "list[0]" is not plain JSON (undefined)'],
    [{ big: 10n }, 'Island "Proef" prop "big" is not plain JSON (bigint)'],
    [{ pattern: /x/ }, 'Island "Proef" prop "pattern" is not plain JSON (RegExp)'],
    [{ deep: { er: [{ model: new (class Model {})() }] } }, 'Island "Proef" prop "deep.er[0].model" is not plain JSON (Model)'],
  ];
  for (const [props, message] of bad) {
    it(`refuses ${message.split(' is ')[0]}`, () => assert.throws(() => serializeIslandProps('Proef', props), { name: 'TypeError', message }));
  }
});

describe('the rule list derived from the DTO (product.md §4)', () => {
  it('lists each field’s rules in written order, with transforms, optionality and messages', () => {
    const rules = browserRules(RegistrationDto);
    assert.deepEqual(Object.keys(rules), ['naam', 'email', 'website', 'referentie', 'gebruikersnaam', 'landcode', 'interesses', 'personen', 'akkoord']);
    assert.deepEqual(rules.naam, {
      transform: 'trim',
      optional: false,
      rules: [
        { name: 'isNotEmpty', constraints: [], each: false, message: 'Dit veld is verplicht' },
        { name: 'minLength', constraints: [2], each: false, message: 'at least 2 characters' },
        { name: 'maxLength', constraints: [60], each: false, message: 'at most 60 characters' },
      ],
    });
    assert.deepEqual(rules.gebruikersnaam?.rules.map((r) => r.name), ['isNotEmpty', 'isTrimmed', 'isLowercase', 'minLength', 'maxLength', 'matches']);
    assert.deepEqual(rules.gebruikersnaam?.rules.at(-1)?.constraints, [{ regexp: '^[a-z0-9_]+$', flags: '' }, null]);
    assert.equal(rules.website?.optional, true);
    assert.equal(rules.personen?.transform, 'integer');
    assert.equal(rules.interesses?.rules.at(-1)?.each, true);
  });

  it('refuses a rule the browser cannot evaluate, naming field and rule', () => {
    class Unsupported {
      @IsNotEmpty()
      @IsPositive()
      aantal!: number;
    }
    assert.throws(() => browserRules(Unsupported), /Field "aantal" uses rule "isPositive", which the browser cannot evaluate/);
  });
});

describe('the build (product.md §5)', () => {
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

let app: TestApp;
before(async () => {
  app = await startApp();
});
after(() => app.close());

describe('serving the build', () => {
  it('serves the .br twin for Accept-Encoding br, .gz for gzip, the original otherwise, with Vary', async () => {
    const manifest = readManifest('dist/manifest.json');
    const url = manifest.runtime.file;
    const br = await raw(app.port, url, { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.match(String(br.headers.vary), /Accept-Encoding/);
    assert.match(String(br.headers['content-type']), /javascript/);
    assert.match(String(br.headers['cache-control']), /immutable/);
    const gz = await raw(app.port, url, { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    const plain = await raw(app.port, url);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.body, readFileSync(`dist${url}`, 'utf8'));
  });

  it('renders the island marker with name, id, trigger, chunk and escaped props, and preloads its modules', async () => {
    const manifest = readManifest('dist/manifest.json');
    const page = await raw(app.port, '/aanmelden');
    const marker = /<div data-island="RegistrationForm"[^>]*>/.exec(page.body)?.[0] ?? '';
    assert.match(marker, /data-island-id="i1"/);
    assert.match(marker, /data-trigger="load"/);
    assert.match(marker, new RegExp(`data-src="${manifest.islands.RegistrationForm!.file}"`));
    assert.match(page.body, /<script type="application\/json" data-island-props="">\{"values":/);
    assert.match(page.body, new RegExp(`<script type="module" src="${manifest.runtime.file}" nonce="[^"]+">`));
    for (const url of [manifest.islands.RegistrationForm!.file, ...manifest.runtime.imports]) {
      assert.match(page.body, new RegExp(`<link rel="modulepreload" href="${url}"/>`), url);
    }
    assert.match(page.body, new RegExp(`<meta name="eiland-manifest" content="${manifest.url}"/>`));
  });

  it('keeps a hostile value harmless inside the props script', async () => {
    const res = await postForm(app, { ...VALID, naam: '</script><!--<script>alert(1)</script>\u2028', akkoord: undefined });
    assert.equal(res.status, 422);
    const props = /<script type="application\/json" data-island-props="">([^<]*)<\/script>/.exec(res.body)?.[1] ?? '';
    assert.equal((JSON.parse(props) as { values: { naam: string } }).values.naam, '</script><!--<script>alert(1)</script>\u2028');
    assert.equal(res.body.match(/<script/g)?.length, 3, 'only the props script, the router and the runtime');
  });
});

describe('the island’s post (product.md §4 with JavaScript)', () => {
  it('answers a marked post that fails validation with 422 JSON field → message', async () => {
    const res = await postForm(app, { ...VALID, naam: 'A', landcode: 'nl' }, undefined, { 'X-Eiland-Data': '1' });
    assert.equal(res.status, 422);
    assert.equal(res.headers['x-eiland-data'], '1');
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.deepEqual(JSON.parse(res.body), { naam: 'at least 2 characters', landcode: 'the value must be upper case' });
  });
  it('answers a marked valid post with a real 303', async () => {
    const res = await postForm(app, VALID, undefined, { 'X-Eiland-Data': '1' });
    assert.equal(res.status, 303);
    assert.match(String(res.headers.location), /^\/aanmeldingen\//);
  });
});

describe('POST /_eiland/client-errors (product.md §9)', () => {
  const send = (body: string, headers: Record<string, string> = {}, from = freshAddress()) =>
    raw(app.port, '/_eiland/client-errors', { method: 'POST', from, headers: { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin', ...headers }, body });
  const report = { message: 'kapot', stack: 'Error: kapot\n    at x (/assets/a.js:1:1)', url: 'http://127.0.0.1/aanmelden?email=geheim@x.nl', island: 'RegistrationForm', requestId: 'pagina-1' };

  it('logs a report at error with source client and the page’s request id, answers 204', async () => {
    const res = await send(JSON.stringify(report), { 'X-Request-Id': 'beacon-1' });
    assert.equal(res.status, 204);
    const line = app.logs().find((l) => l.reqId === 'beacon-1' && l.event === 'client_error');
    assert.equal(line?.level, 50);
    assert.equal(line?.source, 'client');
    assert.equal(line?.pageRequestId, 'pagina-1');
    assert.equal(line?.island, 'RegistrationForm');
    assert.equal(line?.page, '/aanmelden');
    assert.ok(!app.rawLogs().some((l) => l.includes('geheim@x.nl')), 'no query string in the log');
  });
  it('accepts a beacon sent as text/plain', async () => {
    assert.equal((await send(JSON.stringify(report), { 'Content-Type': 'text/plain;charset=UTF-8' })).status, 204);
  });
  const bad: Array<[what: string, body: string]> = [
    ['not JSON', '{kapot'],
    ['an array', '[]'],
    ['a string', '"x"'],
    ['no message', JSON.stringify({ url: '/' })],
    ['an unknown key', JSON.stringify({ ...report, extra: 1 })],
    ['a message that is not a string', JSON.stringify({ ...report, message: 5 })],
    ['a bad island name', JSON.stringify({ ...report, island: '../x' })],
    // Issue 12: class-transformer overflowed its stack on these (a 500).
    ['a field nested 2000 arrays deep', JSON.stringify({ ...report, stack: JSON.parse(`${'['.repeat(2000)}${']'.repeat(2000)}`) })],
    ['a key nested 2000 arrays deep', `{"message":"x","url":"/","x":${'['.repeat(2000)}${']'.repeat(2000)}}`],
    ['an object field', JSON.stringify({ ...report, message: { toString: 'x' } })],
    ['a prototype key', '{"message":"x","url":"/","__proto__":{"polluted":"ja"}}'],
  ];
  for (const [what, body] of bad) {
    it(`400 for ${what}`, async () => assert.equal((await send(body)).status, 400));
  }
  it('413 over 8 KiB', async () => assert.equal((await send(JSON.stringify({ ...report, stack: 'x'.repeat(9000) }))).status, 413));
  it('403 cross-site', async () => assert.equal((await send(JSON.stringify(report), { 'Sec-Fetch-Site': 'cross-site' })).status, 403));
  it('405 for GET', async () => assert.equal((await raw(app.port, '/_eiland/client-errors')).status, 405));
  it('rate-limits per client (429)', async () => {
    const from = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await send(JSON.stringify(report), {}, from)).status);
    assert.deepEqual(statuses, [...Array(10).fill(204), 429]);
  });
});

describe('no React where no island is (product.md §5)', () => {
  const manifest = readManifest('dist/manifest.json');
  /** Every script a page loads: only the router, which has no imports. */
  const assertOnlyRouter = (html: string) => {
    assert.deepEqual([...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]), [manifest.router.file]);
    assert.deepEqual(manifest.router.imports, []);
    assert.doesNotMatch(html, /modulepreload|data-island/);
  };
  for (const path of ['/', '/over', '/voorwaarden', '/privacy', '/aanmelden/bedankt', '/bestaat-niet']) {
    it(`${path} loads only the router`, async () => assertOnlyRouter((await raw(app.port, path)).body));
  }
  it('a confirmation page too', async () => {
    const res = await postForm(app, VALID, await openForm(app));
    assertOnlyRouter((await raw(app.port, String(res.headers.location))).body);
  });
});

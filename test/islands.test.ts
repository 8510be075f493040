/**
 * Islands (docs/islands.md §1, §3): their props on the wire, escaped and plain JSON only; the
 * island's own post (docs/forms.md §5); and no React on a page without an island.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readManifest } from '../src/assets/manifest.js';
import { formPropsFromPage, formPropsOnPage, type FormProps } from '../protocol/forms.js';
import { serializeIslandProps } from '../protocol/islands.js';
import { useApp } from './helpers/app.js';
import { siteBuild } from './helpers/test-dist.js';
import { openForm, postForm, VALID } from './helpers/form.js';
import { PAGES_WITHOUT_ISLANDS } from './helpers/site-pages.js';

const app = useApp(siteBuild);

describe('island props on the wire (docs/islands.md §1)', () => {
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

  it("gives a form's props back from what its page carries and its markup says (docs/forms.md §5)", () => {
    const markup = { csrfToken: 't.k', submissionKey: '5e06f112-1154-4052-b293-0bd7ea5cdc54', form: { name: 'registration', action: '/aanmelden', island: 'RegistrationForm' } };
    const cases: Array<[FormProps, object]> = [
      [{ values: {}, errors: {}, ...markup }, {}],
      [{ values: { naam: 'A' }, errors: { naam: 'at least 2 characters' }, ...markup }, { values: { naam: 'A' }, errors: { naam: 'at least 2 characters' } }],
      [{ values: { naam: 'Anna' }, errors: {}, notice: 'Je sessie is verlopen.', ...markup }, { values: { naam: 'Anna' }, notice: 'Je sessie is verlopen.' }],
    ];
    for (const [props, onPage] of cases) {
      assert.deepEqual(formPropsOnPage(props), onPage);
      assert.deepEqual(formPropsFromPage(JSON.parse(serializeIslandProps('Proef', formPropsOnPage(props))) as object, markup), props);
    }
  });

  it('sends a fresh form without a props script, and a form shown again with its values and errors only: the token, the key and the form are in its markup', async () => {
    const fresh = await app.request('/aanmelden');
    assert.doesNotMatch(fresh.body, /data-island-props/);
    assert.match(fresh.body, /<input type="hidden" name="_csrf" value="[^"]+"\/><input type="hidden" name="_submission" value="[0-9a-f-]{36}"\/>/);
    const res = await postForm(app, '/aanmelden', { ...VALID, naam: 'A' }, await openForm(app, '/aanmelden'));
    assert.equal(res.status, 422);
    const props = /<script type="application\/json" data-island-props="">([^<]*)<\/script>/.exec(res.body)?.[1] ?? '';
    assert.deepEqual(Object.keys(JSON.parse(props) as object), ['values', 'errors']);
  });

  it('keeps a hostile value harmless inside the props script', async () => {
    const res = await postForm(app, '/aanmelden', { ...VALID, naam: '</script><!--<script>alert(1)</script>\u2028', akkoord: undefined });
    assert.equal(res.status, 422);
    const props = /<script type="application\/json" data-island-props="">([^<]*)<\/script>/.exec(res.body)?.[1] ?? '';
    assert.equal((JSON.parse(props) as { values: { naam: string } }).values.naam, '</script><!--<script>alert(1)</script>\u2028');
    assert.equal(res.body.match(/<script/g)?.length, 3, 'only the props script, the router (which loads the runtime after the first paint) and the wait for the stylesheet');
  });
});

describe('the island’s post (docs/forms.md §5)', () => {
  it('answers a marked post that fails validation with 422 JSON field → message', async () => {
    const res = await postForm(app, '/aanmelden', { ...VALID, naam: 'A', landcode: 'nl' }, undefined, { 'X-Eiland-Data': '1' });
    assert.equal(res.status, 422);
    assert.equal(res.headers['x-eiland-data'], '1');
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.deepEqual(JSON.parse(res.body), { naam: 'at least 2 characters', landcode: 'the value must be upper case' });
  });
  it('answers a marked valid post with a real 303', async () => {
    const res = await postForm(app, '/aanmelden', VALID, undefined, { 'X-Eiland-Data': '1' });
    assert.equal(res.status, 303);
    assert.match(String(res.headers.location), /^\/aanmeldingen\//);
  });
});

describe('no React where no island is (docs/islands.md §3)', () => {
  const manifest = readManifest('dist/manifest.json');
  /** Every script a page loads: only the router, which has no imports. */
  const assertOnlyRouter = (html: string) => {
    assert.deepEqual([...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]), [manifest.router.file]);
    assert.deepEqual(manifest.router.imports, []);
    assert.doesNotMatch(html, /modulepreload|data-island/);
  };
  for (const path of [...PAGES_WITHOUT_ISLANDS, '/bestaat-niet']) {
    it(`${path} loads only the router`, async () => assertOnlyRouter((await app.request(path)).body));
  }
  it('a confirmation page too', async () => {
    const res = await postForm(app, '/aanmelden', VALID, await openForm(app, '/aanmelden'));
    assertOnlyRouter((await app.request(String(res.headers.location))).body);
  });
});

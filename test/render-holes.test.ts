/**
 * The holes of a cached render (docs/streaming.md §6): a template rendered with placeholders and
 * filled with a value gives exactly what React renders with that value in its place, wherever it
 * stands (text, attribute, island props, page data's props and HTML), whatever characters it has.
 * And the props' key text: settled props only, JSON only.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
import { serializeIslandProps } from '../protocol/islands.js';
import { fillProps, fillTemplate, PLACEHOLDERS, toTemplate } from '../src/render/holes.js';
import { pageDataBody, type PageDataParts } from '../src/render/page-data.js';
import { propsKey } from '../src/render/props-key.js';
import { settleDeferred } from '../src/render/deferred.js';

/** Values with every character the escapes treat, and some they do not. */
const VALUES = ['plain-Value_1.2', `<script>"quoted" & 'single'</script>`, 'line\nbreak\u2028\\back', 'ë€😀 >'];

/** A page with a value in text, attributes, island props and a nonce. */
function page({ token, key, nonce }: { token: string; key: string; nonce: string }): string {
  return renderToString(
    h('html', { lang: 'nl' }, [
      h('head', { key: 'h' }, [h('meta', { key: 'm', name: 'request-id', content: token }), h('script', { key: 's', type: 'module', src: '/a.js', nonce })]),
      h('body', { key: 'b' }, [
        h('p', { key: 'p', title: key }, 'Tekst: ', token),
        h('script', { key: 'j', type: 'application/json', dangerouslySetInnerHTML: { __html: serializeIslandProps('Proef', { token, key }) } }),
        h('input', { key: 'i', type: 'hidden', value: key, readOnly: true }),
      ]),
    ]),
  );
}

const parts = (props: object): PageDataParts => ({
  manifest: { buildId: 'b', routes: {} } as unknown as PageDataParts['manifest'],
  route: '/proef',
  kind: 'ssr',
  status: 200,
  title: 'Proef',
  description: 'Een proefpagina voor de tests.',
  props,
  cacheControl: 'no-store',
  plan: { islands: [], assets: [] } as unknown as PageDataParts['plan'],
});

describe('render holes (docs/streaming.md §6)', () => {
  for (const value of VALUES) {
    it(`a filled document equals a fresh one: ${JSON.stringify(value)}`, () => {
      const values = { csrfToken: value, submissionKey: `${value}!`, nonce: `n${value}` };
      const template = toTemplate(page({ token: PLACEHOLDERS.csrfToken, key: PLACEHOLDERS.submissionKey, nonce: PLACEHOLDERS.nonce }));
      assert.equal(template.holes.length, 7);
      assert.equal(fillTemplate(template, values), page({ token: values.csrfToken, key: values.submissionKey, nonce: values.nonce }));
    });

    it(`filled page data equals fresh page data: ${JSON.stringify(value)}`, async () => {
      const props = { csrfToken: PLACEHOLDERS.csrfToken, nested: [{ key: PLACEHOLDERS.submissionKey }] };
      const cached = await pageDataBody(page({ token: PLACEHOLDERS.csrfToken, key: PLACEHOLDERS.submissionKey, nonce: 'n' }), parts(props));
      const values = { csrfToken: value, submissionKey: `${value}?` };
      const fresh = await pageDataBody(page({ token: value, key: `${value}?`, nonce: 'n' }), parts(fillProps(props, values)));
      assert.equal(fillTemplate(toTemplate(cached.json, cached.htmlRange), values), fresh.json);
      assert.equal(JSON.parse(fresh.json).props.nested[0].key, `${value}?`);
    });
  }

  it('refuses to fill a hole it has no value for', () => {
    const template = toTemplate(`<p>${PLACEHOLDERS.requestId}</p>`);
    assert.throws(() => fillTemplate(template, {}), { name: 'TypeError', message: 'No value for the render hole "requestId"' });
  });

  it('gives settled JSON props a key, and none to pending or rejected data, functions or class instances', async () => {
    const fulfilled = Promise.resolve(3);
    const rejected = Promise.reject(new Error('weg'));
    await settleDeferred({ fulfilled, rejected });
    assert.equal(propsKey({ a: 'x', n: 1, list: [true, null], when: new Date(0), count: fulfilled }), '{"a":"x","n":1,"list":[true,null],"when":"1970-01-01T00:00:00.000Z","count":{"settled":3}}');
    assert.equal(propsKey({ count: new Promise(() => {}) }), undefined);
    assert.equal(propsKey({ count: rejected }), undefined);
    assert.equal(propsKey({ run: () => 1 }), undefined);
    assert.equal(propsKey({ set: new Set([1]) }), undefined);
  });
});

/**
 * The Image view (docs/images.md §2): required alt, intrinsic size, srcset from the
 * configured widths, lazy unless priority, and priority's one preload link in the head.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
import { readManifest } from '../src/assets/manifest.js';
import { DEVICE_WIDTHS, IMAGE_WIDTHS, imageUrl } from '../protocol/image-config.js';
import { BuildImagesContext, Image, imageSources, useBuildImage } from '../views/Image.js';
import { HERO_SIZES } from '../views/pages/Start.js';
import { useApp } from './helpers/app.js';
import { registrations } from '../src/forms/registration.js';
import { REGISTRATION } from './helpers/temp-storage.js';

const SRC = '/assets/images/photo-ABCDEFGH.jpg';

/** The attributes of the first `<tag …>` in some HTML, names lower-cased, values unescaped. */
function attributesOf(html: string, tag: string, where: RegExp = new RegExp(`<${tag}\\s[^>]*>`, 'i')): Record<string, string> {
  const element = where.exec(html)?.[0];
  assert.ok(element, `a <${tag}> in ${html.slice(0, 200)}`);
  return Object.fromEntries([...element.matchAll(/([a-zA-Z-]+)="([^"]*)"/g)].map((m) => [m[1]!.toLowerCase(), m[2]!.replaceAll('&amp;', '&')]));
}

/** [url, descriptor] pairs of a srcset. */
const entries = (srcset: string) => srcset.split(', ').map((c) => c.split(' ') as [string, string]);

describe('Image: attributes (docs/images.md §2)', () => {
  it('requires alt: a type error, and a render error without it', () => {
    // @ts-expect-error alt is required
    const element = h(Image, { src: SRC, width: 800, height: 400 });
    assert.throws(() => renderToString(element), { name: 'TypeError', message: /"alt" is required/ });
  });

  it('allows alt="" for a decorative image', () => {
    const img = attributesOf(renderToString(h(Image, { src: SRC, alt: '', width: 800, height: 400 })), 'img');
    assert.equal(img.alt, '');
  });

  it('refuses a src outside /assets/images/ and a size that is not a positive integer', () => {
    assert.throws(() => renderToString(h(Image, { src: 'https://elders.example/a.jpg', alt: 'x', width: 800, height: 400 })), /"src" must be a path under \/assets\/images\//);
    assert.throws(() => renderToString(h(Image, { src: SRC, alt: 'x', width: 0, height: 400 })), /"width" must be a positive integer/);
    assert.throws(() => renderToString(h(Image, { src: SRC, alt: 'x', width: 800, height: 40.5 })), /"height" must be a positive integer/);
  });

  it('with sizes: w descriptors from the configured widths (from the smallest vw share of 640 up)', () => {
    const img = attributesOf(renderToString(h(Image, { src: SRC, alt: 'Een foto', width: 3840, height: 1920, sizes: HERO_SIZES })), 'img');
    assert.deepEqual(
      entries(img.srcset!),
      DEVICE_WIDTHS.map((w) => [imageUrl(SRC, w), `${w}w`]),
    );
    assert.equal(img.sizes, HERO_SIZES);
    assert.equal(img.src, imageUrl(SRC, 3840), 'src: the largest variant');
    assert.deepEqual(
      entries(imageSources(SRC, 800, '50vw').srcSet).map(([, d]) => d),
      IMAGE_WIDTHS.filter((w) => w >= 320).map((w) => `${w}w`),
    );
    assert.deepEqual(
      entries(imageSources(SRC, 800, '10rem').srcSet).map(([, d]) => d),
      IMAGE_WIDTHS.map((w) => `${w}w`),
      'no vw: every width',
    );
  });

  it('without sizes: 1x and 2x from the nearest configured widths', () => {
    const img = attributesOf(renderToString(h(Image, { src: SRC, alt: 'Een foto', width: 300, height: 150, quality: 60 })), 'img');
    assert.deepEqual(entries(img.srcset!), [
      [imageUrl(SRC, 384, 60), '1x'],
      [imageUrl(SRC, 640, 60), '2x'],
    ]);
    assert.equal(img.sizes, undefined);
    assert.deepEqual(entries(imageSources(SRC, 3000, undefined).srcSet), [[imageUrl(SRC, 3840), '1x']], 'one entry when 1x and 2x meet');
  });

  it('is lazy and decoded asynchronously, with its intrinsic size, unless priority', () => {
    const lazy = attributesOf(renderToString(h(Image, { src: SRC, alt: 'Een foto', width: 800, height: 400 })), 'img');
    assert.equal(lazy.loading, 'lazy');
    assert.equal(lazy.decoding, 'async');
    assert.equal(lazy.width, '800');
    assert.equal(lazy.height, '400');
    assert.equal(lazy.fetchpriority, undefined);
    const eager = attributesOf(renderToString(h(Image, { src: SRC, alt: 'Een foto', width: 800, height: 400, priority: true })), 'img');
    assert.equal(eager.loading, undefined);
    assert.equal(eager.decoding, undefined);
    assert.equal(eager.fetchpriority, 'high');
  });

  it('names a missing build image, and needs a page render', () => {
    function Uses({ name }: { name: string }) {
      return h('p', null, useBuildImage(name).src);
    }
    assert.throws(() => renderToString(h(Uses, { name: 'hero' })), /outside a page render/);
    const images = { hero: { src: SRC, width: 10, height: 10 } };
    const within = (name: string) => renderToString(h(BuildImagesContext, { value: images }, h(Uses, { name })));
    assert.match(within('hero'), /photo-ABCDEFGH/);
    assert.throws(() => within('nope'), /"nope" is not in this build: run "npm run build"/);
  });
});

describe('Image on the pages', () => {
  const app = useApp();

  it('/: the hero with priority, and exactly one preload in the head with the same srcset and sizes', async () => {
    const html = await (await fetch(`${app.url}/`)).text();
    const head = html.slice(0, html.indexOf('</head>'));
    const preloads = head.match(/<link[^>]*rel="preload"[^>]*as="image"[^>]*>/g) ?? [];
    assert.equal(preloads.length, 1, 'one image preload in the head');
    assert.equal((html.match(/rel="preload"[^>]*as="image"/g) ?? []).length, 1, 'and none elsewhere');
    const link = attributesOf(preloads[0]!, 'link');
    const img = attributesOf(html, 'img', /<img\s[^>]*class="hero"[^>]*>/);
    const hero = readManifest('dist/manifest.json').images.hero!;
    assert.equal(link.imagesrcset, img.srcset);
    assert.equal(link.imagesizes, img.sizes);
    assert.equal(link.fetchpriority, 'high');
    assert.equal(img.fetchpriority, 'high');
    assert.ok(img.srcset!.includes(encodeURIComponent(hero.src)));
    assert.equal(img.width, String(hero.width));
    assert.equal(img.height, String(hero.height));
    assert.ok(img.alt!.length > 10, 'a Dutch description');
  });

  it('/aanmeldingen/:id: a decorative, lazy image and no image preload', async () => {
    const { id } = await registrations(app.storage).save(randomUUID(), REGISTRATION);
    const html = await (await fetch(`${app.url}/aanmeldingen/${id}`)).text();
    const img = attributesOf(html, 'img');
    assert.equal(img.alt, '');
    assert.equal(img.loading, 'lazy');
    assert.ok(img.srcset!.includes(encodeURIComponent(readManifest('dist/manifest.json').images.bevestiging!.src)));
    assert.doesNotMatch(html, /rel="preload"[^>]*as="image"/);
  });
});

/**
 * `GET /_image` refuses every bad input with the exact status and Next.js-style message
 * (docs/images.md §4), as plain text outside the filter (docs/filter.md §8): no request id header,
 * no nonce, no cookies, never a page.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { useImageApp } from './helpers/images.js';
import { MAX_SOURCE_BYTES, MAX_URL_LENGTH } from '../protocol/image-config.js';

const ok = encodeURIComponent('/assets/images/photo.png');
const q = (url: string) => encodeURIComponent(url);

/** [query, status, message]: every rule of docs/images.md §4, with repeated and encoded variants. */
const BAD: [string, number, string][] = [
  ['', 400, '"url" parameter is required'],
  ['w=640', 400, '"url" parameter is required'],
  ['url=&w=640', 400, '"url" parameter is required'],
  [`url=${ok}`, 400, '"w" parameter (width) is required'],
  [`url=${ok}&w=`, 400, '"w" parameter (width) is required'],
  // Each parameter at most once, also when one is written encoded (%75 = u, %77 = w, %71 = q).
  [`url=${ok}&url=${ok}&w=640`, 400, '"url" parameter cannot be an array'],
  [`url=${ok}&%75rl=${ok}&w=640`, 400, '"url" parameter cannot be an array'],
  [`url=${ok}&w=640&w=750`, 400, '"w" parameter (width) cannot be an array'],
  [`url=${ok}&w=640&%77=640`, 400, '"w" parameter (width) cannot be an array'],
  [`url=${ok}&w=640&q=75&q=80`, 400, '"q" parameter (quality) cannot be an array'],
  [`url=${ok}&w=640&q=75&%71=75`, 400, '"q" parameter (quality) cannot be an array'],
  // url: local, under /assets/images/, no tricks after decoding.
  [`url=${q(`/assets/images/${'a'.repeat(MAX_URL_LENGTH)}.png`)}&w=640`, 400, '"url" parameter is too long'],
  [`url=${q('//evil.example/a.png')}&w=640`, 400, '"url" parameter cannot be a protocol-relative URL (//)'],
  [`url=${q('https://evil.example/assets/images/a.png')}&w=640`, 400, '"url" parameter is not allowed'],
  [`url=${q('HTTP://localhost/assets/images/photo.png')}&w=640`, 400, '"url" parameter is not allowed'],
  [`url=${q('javascript:alert(1)')}&w=640`, 400, '"url" parameter is not allowed'],
  [`url=${q('data:image/png;base64,AAAA')}&w=640`, 400, '"url" parameter is not allowed'],
  [`url=${q('file:///etc/passwd')}&w=640`, 400, '"url" parameter is not allowed'],
  [`url=${q('assets/images/photo.png')}&w=640`, 400, '"url" parameter is invalid'],
  [`url=${q('/assets/images\\photo.png')}&w=640`, 400, '"url" parameter is invalid'],
  [`url=${q('/assets/images/%5Cphoto.png')}&w=640`, 400, '"url" parameter is invalid'],
  [`url=${q('/assets/images/../../package.json')}&w=640`, 400, '"url" parameter is invalid'],
  [`url=${q('/assets/images/%2e%2e/%2e%2e/package.json')}&w=640`, 400, '"url" parameter is invalid'],
  [`url=${q('/assets/images/%2E%2E%2F%2E%2E%2Fpackage.json')}&w=640`, 400, '"url" parameter is invalid'],
  [`url=${q('/assets/images/./photo.png')}&w=640`, 400, '"url" parameter is invalid'],
  [`url=${q('/assets/images//photo.png')}&w=640`, 400, '"url" parameter is invalid'],
  [`url=${q('/assets/images/%ZZ.png')}&w=640`, 400, '"url" parameter is invalid'],
  [`url=${q('/assets/images/photo%00.png')}&w=640`, 400, '"url" parameter is invalid'],
  [`url=${q('/assets/images/photo.png?x=1')}&w=640`, 400, '"url" parameter is invalid'],
  [`url=${q('/assets/images/photo.png#x')}&w=640`, 400, '"url" parameter is invalid'],
  [`url=${q(`/_image?url=${ok}&w=640`)}&w=640`, 400, '"url" parameter cannot be recursive'],
  [`url=${q('/%5Fimage?url=x')}&w=640`, 400, '"url" parameter cannot be recursive'],
  [`url=${q('/_image')}&w=640`, 400, '"url" parameter cannot be recursive'],
  [`url=${q('/assets/eiland-router.js')}&w=640`, 400, '"url" parameter is not allowed'],
  [`url=${q('/assets/images/')}&w=640`, 400, '"url" parameter is not allowed'],
  [`url=${q('/over')}&w=640`, 400, '"url" parameter is not allowed'],
  [`url=${q('/assets/imagesx/photo.png')}&w=640`, 400, '"url" parameter is not allowed'],
  // w: one of the configured widths.
  [`url=${ok}&w=abc`, 400, '"w" parameter (width) must be an integer greater than 0'],
  [`url=${ok}&w=0`, 400, '"w" parameter (width) must be an integer greater than 0'],
  [`url=${ok}&w=-640`, 400, '"w" parameter (width) must be an integer greater than 0'],
  [`url=${ok}&w=640.5`, 400, '"w" parameter (width) must be an integer greater than 0'],
  [`url=${ok}&w=1e3`, 400, '"w" parameter (width) must be an integer greater than 0'],
  [`url=${ok}&w=%20640`, 400, '"w" parameter (width) must be an integer greater than 0'],
  [`url=${ok}&w=99999999999`, 400, '"w" parameter (width) must be an integer greater than 0'],
  [`url=${ok}&w=641`, 400, '"w" parameter (width) of 641 is not allowed'],
  [`url=${ok}&w=4000`, 400, '"w" parameter (width) of 4000 is not allowed'],
  [`url=${ok}&w=1`, 400, '"w" parameter (width) of 1 is not allowed'],
  // q: an integer 1–100.
  [`url=${ok}&w=640&q=`, 400, '"q" parameter (quality) must be an integer between 1 and 100'],
  [`url=${ok}&w=640&q=0`, 400, '"q" parameter (quality) must be an integer between 1 and 100'],
  [`url=${ok}&w=640&q=101`, 400, '"q" parameter (quality) must be an integer between 1 and 100'],
  [`url=${ok}&w=640&q=-1`, 400, '"q" parameter (quality) must be an integer between 1 and 100'],
  [`url=${ok}&w=640&q=50.5`, 400, '"q" parameter (quality) must be an integer between 1 and 100'],
  [`url=${ok}&w=640&q=abc`, 400, '"q" parameter (quality) must be an integer between 1 and 100'],
  // A valid request for a file that is not there.
  [`url=${q('/assets/images/nope.png')}&w=640`, 404, 'Not Found'],
  [`url=${q('/assets/images/photo.png/x')}&w=640`, 404, 'Not Found'],
  // Sources refused by content, size or pixels (protocol/image-config.ts).
  [`url=${q('/assets/images/drawing.svg')}&w=640`, 400, '"url" parameter is valid but image type is not allowed'],
  [`url=${q('/assets/images/drawing-svg.png')}&w=640`, 400, '"url" parameter is valid but image type is not allowed'],
  [`url=${q('/assets/images/animation.gif')}&w=640`, 400, '"url" parameter is valid but image type is not allowed'],
  [`url=${q('/assets/images/notes.jpg')}&w=640`, 400, '"url" parameter is valid but image type is not allowed'],
  [`url=${q('/assets/images/huge.jpg')}&w=640`, 400, `"url" parameter is valid but the image file is larger than ${MAX_SOURCE_BYTES} bytes`],
  [`url=${q('/assets/images/bomb.jpg')}&w=640`, 400, '"url" parameter is valid but the image has more than 40000000 pixels'],
  [`url=${q('/assets/images/truncated.jpg')}&w=640`, 400, '"url" parameter is valid but the image cannot be read'],
  [`url=${q('/assets/images/garbage.png')}&w=640`, 400, '"url" parameter is valid but the image cannot be read'],
];

describe('GET /_image: bad input (docs/images.md §4)', () => {
  const { app } = useImageApp();

  for (const [query, status, message] of BAD) {
    it(`${status} ${message} ← ?${query.length > 90 ? `${query.slice(0, 90)}…` : query}`, async () => {
      const res = await app.request(`/_image?${query}`, { headers: { Accept: 'image/webp,*/*' } });
      assert.equal(res.status, status);
      assert.equal(res.body, message);
      assert.match(String(res.headers['content-type']), /^text\/plain/);
      // Outside the filter (docs/filter.md §2, §8): none of its marks, and never a page.
      assert.equal(res.headers['x-request-id'], undefined);
      assert.equal(res.headers['set-cookie'], undefined);
      assert.equal(res.headers['content-security-policy'], "default-src 'none'");
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
    });
  }

  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    it(`405 with Allow for ${method}`, async () => {
      const res = await app.request(`/_image?url=${ok}&w=640`, { method, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'a=1' });
      assert.equal(res.status, 405);
      assert.equal(res.headers.allow, 'GET, HEAD');
      assert.equal(res.body, 'Method Not Allowed');
      assert.equal(res.headers['set-cookie'], undefined);
    });
  }

  it('logs a source sharp cannot read as image_failed at warn, with its path', async () => {
    await app.request(`/_image?url=${q('/assets/images/garbage.png')}&w=640&q=31`);
    const line = app.logs().find((l) => l.event === 'image_failed' && l.url === '/assets/images/garbage.png');
    assert.ok(line, 'an image_failed line');
    assert.equal(line.level, 40);
    assert.equal(typeof line.reason, 'string');
    assert.equal(typeof line.reqId, 'string');
  });

  it('refuses a decompression bomb quickly and with bounded memory', async () => {
    const rssBefore = process.memoryUsage.rss();
    const started = performance.now();
    const res = await app.request(`/_image?url=${q('/assets/images/bomb.jpg')}&w=3840&q=90`);
    const ms = performance.now() - started;
    assert.equal(res.status, 400);
    // 60 000 × 60 000 × 3 bytes would be 10 GB decoded; the header alone is read.
    assert.ok(ms < 2000, `refused in ${Math.round(ms)} ms`);
    assert.ok(process.memoryUsage.rss() - rssBefore < 100 * 1024 * 1024, 'RSS grew by less than 100 MB');
  });
});

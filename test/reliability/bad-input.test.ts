/**
 * Bad-input storm (docs/operations.md §10, docs/forms.md §6): oversized, deeply nested, repeated-key,
 * prototype-key and badly encoded requests from 20 clients at once against the production
 * bundle → every answer a 4xx (never a 5xx or a dropped connection), the server's memory
 * bounded, and the site still working afterwards.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { freshAddress } from '../helpers/app.js';
import { postForm, VALID } from '../helpers/form.js';
import { BUNDLE_FILES, startBundle, useProcess, useProjectCopy } from '../helpers/project.js';
import { openWire } from '../helpers/wire.js';

const CLIENTS = 20;
const ROUNDS = 8;
/**
 * Memory is bounded when it stops growing with the amount of bad input: the second half of the
 * storm may not take the server's resident memory more than this over the first half's peak.
 * (The first half grows it as any load does: a young generation and buffers, ~50 MB.)
 */
const SECOND_HALF_GROWTH_MB = 16;
/** And never over the product's peak RSS under load (docs/performance.md §1). */
const PEAK_RSS_MB = 150;

/** One kind of bad request: its name, the status it must get, and its bytes for a server at `host`. */
type BadRequest = [name: string, status: number, bytes: (host: string) => string];

const form = (host: string, body: string, extra = '') =>
  `POST /aanmelden HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://${host}\r\nSec-Fetch-Site: same-origin\r\nContent-Type: application/x-www-form-urlencoded\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const report = (host: string, body: string) =>
  `POST /_eiland/client-errors HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://${host}\r\nSec-Fetch-Site: same-origin\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const chunk = 'naam='.padEnd(16 * 1024, 'x');

const BAD: BadRequest[] = [
  ['declared 50 MB form, no body', 413, (h) => `POST /aanmelden HTTP/1.1\r\nHost: ${h}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 50000000\r\n\r\n`],
  [
    'chunked 640 KiB form',
    413,
    (h) =>
      `POST /aanmelden HTTP/1.1\r\nHost: ${h}\r\nOrigin: http://${h}\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n` +
      `${chunk.length.toString(16)}\r\n${chunk}\r\n`.repeat(40) +
      '0\r\n\r\n',
  ],
  ['array nested 2000 deep', 400, (h) => report(h, `${'['.repeat(2000)}${']'.repeat(2000)}`)],
  ['object nested 1300 deep', 400, (h) => report(h, `${'{"a":'.repeat(1300)}1${'}'.repeat(1300)}`)],
  ['prototype keys in JSON', 400, (h) => report(h, '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}},"message":"m","url":"/"}')],
  ['invalid JSON', 400, (h) => report(h, '{"message": "m", "url": ')],
  ['report over 8 KiB', 413, (h) => report(h, JSON.stringify({ message: 'm'.repeat(9000), url: '/' }))],
  ['one key 3000 times', 400, (h) => form(h, 'naam=a&'.repeat(3000))],
  ['3000 distinct keys', 400, (h) => form(h, Array.from({ length: 3000 }, (_, i) => `k${i}=1`).join('&'))],
  ['prototype keys in a form', 400, (h) => form(h, '__proto__[isAdmin]=1&constructor[prototype][isAdmin]=1&naam=x')],
  ['malformed percent-encoding', 400, (h) => form(h, 'naam=%ZZ%&email=%')],
  ['overlong UTF-8', 400, (h) => form(h, 'naam=%C0%AE%FF%FE')],
  ['content coding named like a prototype key', 415, (h) => form(h, 'naam=x', 'Content-Encoding: constructor\r\n')],
  ['gzip body that does not inflate', 400, (h) => form(h, 'dit is geen gzip', 'Content-Encoding: gzip\r\n')],
  [
    'gzip garbage in an unknown charset',
    415,
    (h) => form(h, 'dit is geen gzip', 'Content-Encoding: gzip\r\n').replace('x-www-form-urlencoded', 'x-www-form-urlencoded; charset=klingon'),
  ],
  ['report in UTF-7', 415, (h) => report(h, '{"message":"m","url":"/"}').replace('application/json', 'application/json; charset=utf-7')],
  ['unknown charset', 415, (h) => form(h, 'naam=x', '').replace('x-www-form-urlencoded', 'x-www-form-urlencoded; charset=klingon')],
  ['headers over 16 KiB', 431, (h) => `GET / HTTP/1.1\r\nHost: ${h}\r\nX-Groot: ${'x'.repeat(20_000)}\r\n\r\n`],
  ['bad path encoding', 400, (h) => `GET /aanmelden/%ZZ%C0 HTTP/1.1\r\nHost: ${h}\r\n\r\n`],
  ['NUL in the path', 404, (h) => `GET /over%00.html HTTP/1.1\r\nHost: ${h}\r\n\r\n`],
];

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

const project = useProjectCopy({ files: BUNDLE_FILES });

describe('a storm of bad input', { timeout: 120_000 }, () => {
  const bundle = useProcess(() => startBundle(project.dir, { FORM_RATE_LIMIT: '100000/1m' }));

  it(`${CLIENTS} clients × ${ROUNDS} rounds of ${BAD.length} kinds: each its own 4xx, memory bounded`, async (t) => {
    const host = `127.0.0.1:${bundle.port}`;
    for (let i = 0; i < 50; i++) await fetch(`${bundle.url}/`).then((r) => r.text());
    const pid = bundle.server.child.pid!;
    const baseline = rssMb(pid);
    const answers: string[] = [];
    const wrong: string[] = [];
    const total = CLIENTS * ROUNDS * BAD.length;
    const peaks = [baseline, 0]; // first half, second half
    const sampler = setInterval(() => {
      const half = answers.length < total / 2 ? 0 : 1;
      peaks[half] = Math.max(peaks[half]!, rssMb(pid));
    }, 50);

    try {
      await Promise.all(
        Array.from({ length: CLIENTS }, async (_, client) => {
          for (let round = 0; round < ROUNDS; round++) {
            for (let k = 0; k < BAD.length; k++) {
              const [name, expected, bytes] = BAD[(k + client) % BAD.length]!;
              const wire = await openWire(bundle.port, bytes(host), freshAddress());
              const { status } = await wire.response;
              wire.socket.destroy();
              answers.push(`${status} ${name}`);
              if (status !== expected) wrong.push(`${name}: ${status}, not ${expected}`);
            }
          }
        }),
      );
    } finally {
      clearInterval(sampler);
    }

    assert.equal(answers.length, total);
    t.diagnostic(`statuses: ${[...new Set(answers)].sort().join('; ')}`);
    t.diagnostic(`RSS ${baseline.toFixed(0)} MB before, peak ${peaks[0]!.toFixed(0)} MB in the first half, ${peaks[1]!.toFixed(0)} MB in the second`);
    assert.deepEqual([...new Set(wrong)], [], 'each kind its own 4xx');
    assert.ok(peaks[1]! - peaks[0]! <= SECOND_HALF_GROWTH_MB, `RSS still growing: ${peaks[0]!.toFixed(0)} → ${peaks[1]!.toFixed(0)} MB`);
    assert.ok(Math.max(...peaks) <= PEAK_RSS_MB, `peak RSS ${Math.max(...peaks).toFixed(0)} MB`);
    assert.doesNotMatch(bundle.server.output(), /"level":(50|60)/, 'no error logs');

    // Still whole: a page and a real registration.
    assert.match(await fetch(`${bundle.url}/`).then((r) => r.text()), /<\/html>\s*$/);
    assert.equal((await postForm(bundle, '/aanmelden', VALID)).status, 303);
  });
});

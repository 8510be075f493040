/**
 * W3C Trace Context (docs/operations.md §2): a valid `traceparent` gives every log line of its request a
 * `traceId` and `spanId`; an invalid one is ignored; the request id stays as it is.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTraceparent } from '../src/trace-context.js';
import { testRoutes } from './fixtures/test-routes.js';
import { useApp } from './helpers/app.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

describe('parseTraceparent', () => {
  const cases: [header: string | string[] | undefined, expected: ReturnType<typeof parseTraceparent>][] = [
    [`00-${TRACE}-${SPAN}-01`, { traceId: TRACE, spanId: SPAN }],
    [`00-${TRACE}-${SPAN}-00`, { traceId: TRACE, spanId: SPAN }],
    [` 00-${TRACE}-${SPAN}-01 `, { traceId: TRACE, spanId: SPAN }],
    [`01-${TRACE}-${SPAN}-01-toekomst`, { traceId: TRACE, spanId: SPAN }],
    [`01-${TRACE}-${SPAN}-01`, { traceId: TRACE, spanId: SPAN }],
    [`00-${TRACE}-${SPAN}-01-extra`, undefined],
    [`ff-${TRACE}-${SPAN}-01`, undefined],
    [`00-${'0'.repeat(32)}-${SPAN}-01`, undefined],
    [`00-${TRACE}-${'0'.repeat(16)}-01`, undefined],
    [`00-${TRACE.toUpperCase()}-${SPAN}-01`, undefined],
    [`00-${TRACE.slice(1)}-${SPAN}-01`, undefined],
    [`00-${TRACE}-${SPAN}-1`, undefined],
    [`00_${TRACE}_${SPAN}_01`, undefined],
    [`00-${TRACE}-${SPAN}-01\n{"level":60}`, undefined],
    ['', undefined],
    [undefined, undefined],
    [[`00-${TRACE}-${SPAN}-01`, `00-${TRACE}-${SPAN}-01`], undefined],
  ];
  for (const [header, expected] of cases) {
    it(`${JSON.stringify(header)} → ${JSON.stringify(expected)}`, () => assert.deepEqual(parseTraceparent(header), expected));
  }
});

describe('trace ids on the log lines of a request', () => {
  const app = useApp({ extraRoutes: testRoutes });

  it('a valid traceparent puts traceId and spanId on every line; the request id stays', async () => {
    const res = await app.request('/proef/kapot', { headers: { traceparent: `00-${TRACE}-${SPAN}-01`, 'X-Request-Id': 'met-trace' } });
    assert.equal(res.headers['x-request-id'], 'met-trace');
    const lines = app.logs().filter((l) => l.reqId === 'met-trace');
    assert.ok(lines.length >= 1);
    for (const line of lines) {
      assert.equal(line.traceId, TRACE, String(line.msg));
      assert.equal(line.spanId, SPAN, String(line.msg));
    }
    const page = await app.request('/over', { headers: { traceparent: `00-${TRACE}-${SPAN}-01` } });
    assert.match(page.body, new RegExp(`<meta name="request-id" content="${String(page.headers['x-request-id'])}"/>`));
    assert.doesNotMatch(page.body, new RegExp(TRACE), 'the page shows its request id, not the trace');
  });

  it('an invalid traceparent is ignored', async () => {
    await app.request('/over', { headers: { traceparent: `00-${'0'.repeat(32)}-${SPAN}-01`, 'X-Request-Id': 'zonder-trace' } });
    const line = app.logs().find((l) => l.reqId === 'zonder-trace');
    assert.ok(line);
    assert.equal('traceId' in line, false);
    assert.equal('spanId' in line, false);
  });
});

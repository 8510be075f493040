/**
 * The pipeline declared once (src/pipeline.ts, src/request-pipeline.ts): a step added to it is
 * run by both paths, the fast path beside Express and Express, with nothing written for the fast
 * path. Two steps are added to an app whose cached pages the fast path answers and to one whose
 * Express path answers everything: one that sets a header, one that refuses some requests.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { HttpError } from '../src/errors.js';
import { headerStep, refusingStep, withSteps, type AddedStep, type Step } from '../src/pipeline.js';
import { useApp } from './helpers/app.js';
import { get, shape, watchPaths } from './helpers/paths.js';

const BROWSER = { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36' };
const REFUSED = { ...BROWSER, 'X-Proef': 'weiger' };

/** The two steps added: a header after the filter's, and a refusal after the public host's check. */
const ADDED: AddedStep[] = [
  { after: 'filter', step: headerStep('permissions policy', 'Permissions-Policy', 'camera=(), microphone=()') },
  { after: 'public host', step: refusingStep('proef', (req) => (req.get('X-Proef') === 'weiger' ? new HttpError(403, 'Refused by the test step') : undefined)) },
];

const env = { RENDER_CACHE_VERIFY: '0' };
const fast = useApp({ steps: ADDED }, env);
const express = useApp({ steps: ADDED, fastPath: false }, env);

describe('a step added to the pipeline (docs/streaming.md §7)', () => {
  let fastPaths: Map<string, boolean>;
  let expressPaths: Map<string, boolean>;
  before(async () => {
    fastPaths = watchPaths(fast.server);
    expressPaths = watchPaths(express.server);
    // The first answer of each is a miss, rendered and kept.
    await get(fast, fastPaths, '/over', BROWSER);
    await get(express, expressPaths, '/over', BROWSER);
  });

  it('sets its header on both paths, in its place among the others', async () => {
    const a = await get(fast, fastPaths, '/over', BROWSER);
    const b = await get(express, expressPaths, '/over', BROWSER);
    assert.deepEqual([a.viaExpress, b.viaExpress], [false, true], 'a kept page is answered beside Express');
    assert.deepEqual(shape(a), shape(b));
    const names = a.headers.map(([name]) => name);
    assert.equal(names.indexOf('permissions-policy'), names.indexOf('vary') + 1, 'right after the filter’s last header');
  });

  it('refuses on both paths: the fast path leaves the request to Express, which answers with the error page', async () => {
    const a = await get(fast, fastPaths, '/over', REFUSED);
    const b = await get(express, expressPaths, '/over', REFUSED);
    assert.deepEqual([a.status, a.viaExpress], [403, true]);
    assert.deepEqual(shape(a), shape(b));
    assert.match(a.body, /<title>403: /);
  });

  it('refuses a step added after a step the pipeline lacks, naming the steps', () => {
    const steps: Step[] = [headerStep('een', 'X-Een', '1')];
    assert.throws(() => withSteps(steps, [{ after: 'twee', step: headerStep('drie', 'X-Drie', '3') }]), { name: 'RangeError', message: 'No step "twee" to add "drie" after (steps: een)' });
  });
});

/**
 * The HTML budgets of docs/performance.md §1: every page of the route table, fetched as
 * `npm run bench` fetches it (no user agent, the whole streamed document; bench/page-scripts.mjs),
 * within its budget of bench/budgets.mjs. A page with a parameter is a registration's, the test
 * kit's. A size, not a timing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HTML_BUDGET } from '../bench/budgets.mjs';
import { fetchRaw } from '../bench/page-scripts.mjs';
import { ROUTES } from '../protocol/routes.js';
import { useApp } from './helpers/app.js';
import { openForm, postForm, VALID } from './helpers/form.js';
import { siteBuild } from './helpers/test-dist.js';

describe('the HTML budgets (docs/performance.md §1)', () => {
  const app = useApp(siteBuild);
  /** The registration whose pages are measured: its own page's path, once made. */
  let registration: Promise<string> | undefined;
  const registered = () =>
    (registration ??= openForm(app, '/aanmelden')
      .then((session) => postForm(app, '/aanmelden', VALID, session))
      .then((res) => {
        assert.equal(res.status, 303);
        return String(res.headers.location);
      }));

  it('has a budget for every page of the route table, and for no other', () => {
    assert.deepEqual(Object.keys(HTML_BUDGET).sort(), ROUTES.map((route) => route.path).sort());
  });

  for (const { path } of ROUTES) {
    const budget = HTML_BUDGET[path as keyof typeof HTML_BUDGET];
    it(`${path}: at most ${budget} bytes`, async () => {
      assert.ok(!path.includes(':') || path.startsWith('/aanmeldingen/:id'), `${path}: no page of it to measure; give it one here`);
      const target = path.startsWith('/aanmeldingen/:id') ? path.replace('/aanmeldingen/:id', await registered()) : path;
      const res = await fetchRaw(app.port, target);
      assert.equal(res.status, 200, target);
      assert.ok(res.body.length <= budget, `${target}: ${res.body.length} bytes`);
    });
  }
});

/**
 * Every line the production server writes is a JSON log line (docs/operations.md §2), whatever clients
 * send: forwarded headers while `TRUST_PROXY` is unset, requests the parser rejects, two `Host`
 * lines, bad form posts and error reports.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openForm, postForm, VALID } from './helpers/form.js';
import { BUNDLE_FILES, startBundle, useProcess, useProjectCopy } from './helpers/project.js';
import { openWire } from './helpers/wire.js';

const project = useProjectCopy({ files: BUNDLE_FILES });

describe('every line the server writes is JSON', () => {
  const bundle = useProcess(() => startBundle(project.dir, { LOG_LEVEL: 'debug' }));

  it('under forwarded headers without TRUST_PROXY, parser rejections and bad requests', async () => {
    const site = { port: bundle.port, url: bundle.url };
    const forwarded = { 'X-Forwarded-For': '203.0.113.9', Forwarded: 'for=203.0.113.9' };
    assert.equal((await postForm(site, '/aanmelden', VALID, await openForm(site, '/aanmelden'), forwarded)).status, 303);
    const report = await fetch(`${bundle.url}/_eiland/client-errors`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin', ...forwarded },
      body: JSON.stringify({ message: 'Fout', url: `${bundle.url}/` }),
    });
    assert.equal(report.status, 204);
    for (const bytes of ['GET / HTTP/1.1\r\nHost: a\r\nKapot Veld: x\r\n\r\n', 'GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n']) {
      const wire = await openWire(bundle.port, bytes);
      assert.equal((await wire.response).status, 400);
    }
    await fetch(`${bundle.url}/nope`);
    // The log is written in order: once the last request's line is out, so are the others'.
    await bundle.server.waitFor(/"path":"\/nope"/, 5000);

    const lines = bundle.server.output().split('\n').filter((l) => l.trim() !== '');
    const notJson = lines.filter((line) => {
      try {
        return typeof JSON.parse(line) !== 'object';
      } catch {
        return true;
      }
    });
    assert.deepEqual(notJson, [], 'stdout and stderr hold JSON lines only');
    const events = lines.map((l) => JSON.parse(l) as { event?: string; code?: string; level: number });
    const warnings = events.filter((e) => e.event === 'rate_limit_warning');
    assert.ok(warnings.length >= 1, 'the rate limiter’s warning is a log line');
    assert.ok(warnings.every((w) => w.level === 40 && /^ERR_ERL_/.test(String(w.code))));
    assert.equal(events.filter((e) => e.event === 'request_rejected').length, 1);
  });
});

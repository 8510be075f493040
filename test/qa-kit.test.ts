/**
 * The browser suite runs against any deployment: started separately, the
 * production bundle is tested through `BASE_URL`; tests that need the server's insides skip
 * themselves, saying why.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUNDLE_FILES, run, startBundle, useProcess, useProjectCopy } from './helpers/project.js';

const project = useProjectCopy({ files: BUNDLE_FILES });

describe('BASE_URL: the browser suite against a separately started instance', { timeout: 240_000 }, () => {
  const instance = useProcess(() => startBundle(project.dir, { FORM_RATE_LIMIT: '10000/1m' }));

  it('passes, with the tests that need the server skipped and saying why', async () => {
    // A test run of its own, as `BASE_URL=… npm run test:e2e` starts it (not a subtest of this one).
    const env: NodeJS.ProcessEnv = { ...process.env, BASE_URL: `${instance.url}/` };
    delete env.NODE_TEST_CONTEXT;
    const output = await run(process.execPath, ['--import', 'tsx', '--import', './src/env.ts', '--test', '--test-reporter=tap', 'test/e2e/pages.test.ts', 'test/e2e/client-errors.test.ts', 'test/e2e/images.test.ts'], { env });
    assert.match(output, /# fail 0/);
    assert.match(output, /# pass [1-9]/);
    assert.match(output, /# SKIP needs test-only islands and the server's logs, which a test against BASE_URL \(http:\/\/127\.0\.0\.1:\d+\) cannot reach/);
    assert.match(output, /# SKIP needs a slow registration count/);
    // The pages were asked of that instance: its log has their lines.
    assert.match(instance.server.output(), /"path":"\/over"[^\n]*"status":200/);
  });
});

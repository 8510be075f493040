/**
 * Configuration from the environment (product.md §12): the variables added for images
 * (issue 10) and the form limit (issue 11), with their defaults and their refusals.
 */
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, parseRateLimit } from '../src/config.js';
import { DEFAULT_CACHE_MAX_BYTES } from '../protocol/image-config.js';

/** The message of the ConfigError a set of variables raises. */
function problem(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.message;
  }
  assert.fail(`no ConfigError for ${JSON.stringify(env)}`);
}

describe('FORM_RATE_LIMIT: the per-address limit of POST /aanmelden', () => {
  it('defaults to 20 per 10 minutes', () => {
    assert.deepEqual(loadConfig({}).formRateLimit, { limit: 20, windowMs: 600_000 });
  });
  it('reads posts per window in s, m or h', () => {
    assert.deepEqual(parseRateLimit('1000/1m'), { limit: 1000, windowMs: 60_000 });
    assert.deepEqual(parseRateLimit('5/30s'), { limit: 5, windowMs: 30_000 });
    assert.deepEqual(loadConfig({ FORM_RATE_LIMIT: '100/2h' }).formRateLimit, { limit: 100, windowMs: 7_200_000 });
  });
  for (const bad of ['', '20', '20/10', '0/10m', '20/0m', '-1/1m', '20/10d', 'veel/1m', '1.5/1m']) {
    it(`refuses "${bad}" at start-up, naming the variable`, () => {
      assert.match(problem({ FORM_RATE_LIMIT: bad }), /FORM_RATE_LIMIT must be posts per window, like 20\/10m/);
    });
  }
});

describe('IMAGE_* variables', () => {
  it('default to WebP, 256 MiB, the project cache folder and one core fewer than there are', () => {
    assert.deepEqual(loadConfig({}).images, { formats: ['image/webp'], cacheDir: undefined, cacheMaxBytes: DEFAULT_CACHE_MAX_BYTES, jobs: Math.max(1, availableParallelism() - 1) });
  });
  it('opt in to AVIF, or to the sources’ own formats only', () => {
    assert.deepEqual(loadConfig({ IMAGE_FORMATS: 'image/avif, image/webp' }).images.formats, ['image/avif', 'image/webp']);
    assert.deepEqual(loadConfig({ IMAGE_FORMATS: '' }).images.formats, []);
  });
  it('refuse what they cannot use', () => {
    assert.match(problem({ IMAGE_FORMATS: 'image/gif' }), /IMAGE_FORMATS must be a comma-separated list/);
    assert.match(problem({ IMAGE_CACHE_MAX_BYTES: '1GB' }), /IMAGE_CACHE_MAX_BYTES must be a whole number of bytes/);
    assert.match(problem({ IMAGE_JOBS: '0' }), /IMAGE_JOBS must be an integer from 1 to/);
    assert.match(problem({ IMAGE_JOBS: String(availableParallelism() + 1) }), /IMAGE_JOBS must be an integer from 1 to/);
  });
});

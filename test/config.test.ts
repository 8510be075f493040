/**
 * Configuration from the environment (docs/operations.md §1): each variable's default and its
 * refusals, and a process that refuses bad values at start-up.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { availableParallelism } from 'node:os';
import { describe, it } from 'node:test';
import { ConfigError, DEFAULT_RENDER_CACHE_MAX_BYTES, loadConfig, parseRateLimit } from '../src/config.js';
import { DEFAULT_CACHE_MAX_BYTES } from '../protocol/image-config.js';
import { within } from './helpers/app.js';

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

describe('RENDER_CACHE_* variables (docs/streaming.md §6)', () => {
  it('default to a 16 MiB cache, verified only in development', () => {
    assert.deepEqual(loadConfig({}).renderCache, { maxBytes: DEFAULT_RENDER_CACHE_MAX_BYTES, verify: false });
    assert.equal(DEFAULT_RENDER_CACHE_MAX_BYTES, 16 * 1024 * 1024);
    assert.deepEqual(loadConfig({ NODE_ENV: 'development' }).renderCache.verify, true);
    assert.deepEqual(loadConfig({ NODE_ENV: 'development', RENDER_CACHE_VERIFY: '0' }).renderCache.verify, false);
    assert.deepEqual(loadConfig({ RENDER_CACHE_MAX_BYTES: '0', RENDER_CACHE_VERIFY: '1' }).renderCache, { maxBytes: 0, verify: true });
  });
  it('refuse what they cannot use', () => {
    assert.match(problem({ RENDER_CACHE_MAX_BYTES: '16MB' }), /RENDER_CACHE_MAX_BYTES must be a whole number of bytes from 0 \(off\) to 1073741824, got "16MB"/);
    assert.match(problem({ RENDER_CACHE_MAX_BYTES: String(2 ** 30 + 1) }), /RENDER_CACHE_MAX_BYTES must be a whole number of bytes/);
    assert.match(problem({ RENDER_CACHE_VERIFY: 'yes' }), /RENDER_CACHE_VERIFY must be 1 or 0, got "yes"/);
  });
});

describe('METRICS_PORT and METRICS_HOST: the metrics listener', () => {
  it('is off by default, on loopback when a port is set, and never on the public port', () => {
    assert.equal(loadConfig({}).metrics, undefined);
    assert.deepEqual(loadConfig({ METRICS_PORT: '9464' }).metrics, { port: 9464, host: '127.0.0.1' });
    assert.deepEqual(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).metrics, { port: 9464, host: '10.0.0.5' });
    assert.throws(() => loadConfig({ PORT: '3000', METRICS_PORT: '3000' }), (e: unknown) => e instanceof ConfigError && /METRICS_PORT must not be PORT/.test(e.message));
    assert.throws(() => loadConfig({ METRICS_PORT: 'abc' }), /METRICS_PORT must be an integer from 0 to 65535, got "abc"/);
  });
});

describe('SMTP_URL and MAIL_*: the outbox (docs/operations.md §12)', () => {
  it('default to files, a sender on localhost (or the public origin), a minute, ten tries', () => {
    assert.deepEqual(loadConfig({}).mail, { smtpUrl: undefined, from: 'Eiland <noreply@localhost>', retryMs: 60_000, maxAttempts: 10, notifyTo: undefined });
    assert.equal(loadConfig({ PUBLIC_ORIGIN: 'https://eiland.example' }).mail.from, 'Eiland <noreply@eiland.example>');
    assert.deepEqual(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example:465', MAIL_FROM: 'noreply@eiland.example', MAIL_RETRY_MS: '500', MAIL_MAX_ATTEMPTS: '3' }).mail, {
      smtpUrl: 'smtps://u:p@mail.example:465',
      from: 'noreply@eiland.example',
      retryMs: 500,
      maxAttempts: 3,
      notifyTo: undefined,
    });
  });
  it('refuse what they cannot use', () => {
    assert.match(problem({ SMTP_URL: 'mail.example:25' }), /SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
    assert.match(problem({ SMTP_URL: 'https://mail.example' }), /SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
    assert.match(problem({ MAIL_FROM: 'Eiland' }), /MAIL_FROM must be one address, like noreply@eiland.example or Eiland <noreply@eiland.example>, got "Eiland"/);
    assert.match(problem({ MAIL_RETRY_MS: '5' }), /MAIL_RETRY_MS must be a whole number of ms from 10 to 3600000, got "5"/);
    assert.match(problem({ MAIL_MAX_ATTEMPTS: '0' }), /MAIL_MAX_ATTEMPTS must be a whole number from 1 to 100, got "0"/);
  });
});

describe('SMTP_URL: the server named as written (docs/operations.md §1)', () => {
  // Nodemailer connects to localhost for a missing host and to its default port for port 0.
  // A query holds Nodemailer's options: `debug` and `logger` print the SMTP transcript (addresses, links) to stdout.
  for (const bad of ['smtp://', 'smtp:mail.example', 'smtp://mail.example:0', 'smtp://:587', 'http://mail.example:25', 'smtp://mail.example:587?debug=true&logger=true', 'smtp://mail.example?pool=false', 'smtp://mail.example:25?', 'smtp://mail.example#x']) {
    it(`refuses "${bad}" at start-up, naming the variable and not the value`, () => {
      assert.equal(problem({ SMTP_URL: bad }), 'Invalid configuration:\n  - SMTP_URL must be an smtp:// or smtps:// URL with a host and a port from 1 to 65535 and no query options, like smtp://user:password@mail.example:587');
    });
  }
  for (const good of ['smtp://mail.example', 'smtp://user:pa%40ss@mail.example:587', 'smtps://mail.example:465', 'smtp://127.0.0.1:2525', 'smtp://[::1]:2525']) {
    it(`accepts "${good}"`, () => {
      assert.equal(loadConfig({ SMTP_URL: good }).mail.smtpUrl, good);
    });
  }
});

describe('MAIL_FROM: exactly one mailbox, as Nodemailer reads it (docs/operations.md §1)', () => {
  for (const bad of ['a,b@c.example', 'a@b.example, c@d.example', 'Eiland <a@b.example> <c@d.example>', '"a\r\nBcc: x@y.example"@b.example', 'a b@c.example', '<>', '"x" <a@b.c>, d@e.f', 'a@b.c d@e.f', 'Eiland <a@b.c> extra']) {
    it(`refuses ${JSON.stringify(bad)} at start-up, naming the variable`, () => {
      assert.equal(problem({ MAIL_FROM: bad }), `Invalid configuration:\n  - MAIL_FROM must be one address, like noreply@eiland.example or Eiland <noreply@eiland.example>, got ${JSON.stringify(bad)}`);
    });
  }
  for (const good of ['noreply@eiland.example', 'Eiland <noreply@eiland.example>', '"Eiland, de site" <noreply@eiland.example>', 'Eiland <noreply@localhost>']) {
    it(`accepts ${JSON.stringify(good)}`, () => {
      assert.equal(loadConfig({ MAIL_FROM: good }).mail.from, good);
    });
  }
  it('defaults to the public origin’s host only where that makes an address, else localhost', () => {
    assert.equal(loadConfig({ PUBLIC_ORIGIN: 'http://127.0.0.1:3000' }).mail.from, 'Eiland <noreply@127.0.0.1>');
    assert.equal(loadConfig({ PUBLIC_ORIGIN: 'http://[::1]:3000' }).mail.from, 'Eiland <noreply@localhost>');
    assert.equal(loadConfig({ PUBLIC_ORIGIN: 'http://eiland:3000' }).mail.from, 'Eiland <noreply@localhost>');
  });
  it('quotes a refused value on one line', () => {
    assert.match(problem({ MAIL_FROM: 'a\nb@c.example' }), /got "a\\nb@c\.example"$/);
  });
});

describe('PUBLIC_ORIGIN: the origins the site is served under', () => {
  it('is validated at start-up', () => {
    for (const bad of ['eiland.test', 'https://eiland.test/', 'https://eiland.test/pad', 'ftp://eiland.test', 'https://eiland.test,  nope']) {
      assert.throws(() => loadConfig({ PUBLIC_ORIGIN: bad }), (e: unknown) => e instanceof ConfigError && /PUBLIC_ORIGIN must be a comma-separated list of origins/.test(e.message), bad);
    }
    assert.deepEqual(loadConfig({ PUBLIC_ORIGIN: 'https://eiland.example' }).publicOrigins, ['https://eiland.example']);
    assert.equal(loadConfig({}).publicOrigins, undefined);
  });
});

describe('configuration (docs/operations.md §1)', () => {
  it('refuses bad values with a clear message and exit 1', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, PORT: 'abc', LOG_LEVEL: 'loud', SMTP_URL: 'smtp://eiland:geheim-wachtwoord@mail.example:0', MAIL_FROM: 'a,b@c.example' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    try {
      const [code] = await within(once(child, 'close'), 20_000, 'the exit of a process given bad values');
      assert.equal(code, 1);
    } finally {
      child.kill('SIGKILL');
    }
    assert.match(stderr, /PORT must be an integer from 0 to 65535, got "abc"/);
    assert.match(stderr, /LOG_LEVEL must be one of .*got "loud"/);
    assert.match(stderr, /SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL with a host and a port from 1 to 65535/);
    assert.doesNotMatch(stderr, /geheim-wachtwoord/);
    assert.match(stderr, /MAIL_FROM must be one address, .*got "a,b@c\.example"/);
  });
});

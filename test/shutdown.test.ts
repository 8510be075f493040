import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { connect } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { INTERNAL_MESSAGE } from './fixtures/routes.js';
import { waitFor } from './helpers/app.js';

/** Starts test/fixtures/server.ts as its own process; resolves with its port once it listens. */
async function startProcess(env: NodeJS.ProcessEnv) {
  const dir = await mkdtemp(join(tmpdir(), 'eiland-proc-'));
  after(() => rm(dir, { recursive: true, force: true }));
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', './src/env.ts', 'test/fixtures/server.ts', join(dir, 'eiland.db')], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Array<Record<string, unknown>> = [];
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    for (const part of parts) lines.push(JSON.parse(part) as Record<string, unknown>);
  });
  await waitFor(() => lines.some((l) => l.event === 'server_started'), 15_000);
  const port = lines.find((l) => l.event === 'server_started')!.port as number;
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, port, lines, exited };
}

function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

function envWithout(name: string): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env[name];
  return env;
}

describe('the server process (product.md §12)', () => {
  it('on SIGTERM lets an in-flight request finish, refuses new ones, exits 0', async () => {
    const proc = await startProcess({ ...envWithout('NODE_ENV'), LOG_LEVEL: 'info' });
    let child: ChildProcess | undefined = proc.child;
    try {
      assert.equal((await get(proc.port, '/readyz')).status, 200);
      const slow = get(proc.port, '/proef/traag?ms=800');
      await new Promise((r) => setTimeout(r, 200));
      proc.child.kill('SIGTERM');
      await waitFor(() => proc.lines.some((l) => l.event === 'shutdown_started'));
      await assert.rejects(get(proc.port, '/over'), /ECONNREFUSED|ECONNRESET/);
      const answer = await slow;
      assert.equal(answer.status, 200);
      assert.match(answer.body, /Traag klaar na 800 ms/);
      assert.equal(await proc.exited, 0);
      child = undefined;
      const events = proc.lines.map((l) => l.event).filter(Boolean);
      assert.deepEqual(events, ['server_started', 'shutdown_started', 'shutdown_complete']);
    } finally {
      child?.kill('SIGKILL');
    }
  });

  it('a request answered at once on a busy keep-alive connection during shutdown does not crash it (issue 12)', async () => {
    const proc = await startProcess({ ...envWithout('NODE_ENV'), LOG_LEVEL: 'info' });
    let child: ChildProcess | undefined = proc.child;
    try {
      const socket = connect(proc.port, '127.0.0.1');
      await once(socket, 'connect');
      let received = '';
      socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
      socket.on('error', () => {});
      // A slow post on a keep-alive connection: headers now, body after the SIGTERM.
      socket.write('POST /_eiland/client-errors HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n');
      await new Promise((r) => setTimeout(r, 150));
      proc.child.kill('SIGTERM');
      await waitFor(() => proc.lines.some((l) => l.event === 'shutdown_started'));
      // The rest of the body, then a request answered synchronously (a 308) on the same connection.
      socket.write('{}GET /over/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      assert.equal(await proc.exited, 0, 'a clean exit, not a crash');
      child = undefined;
      assert.deepEqual(
        proc.lines.map((l) => l.event).filter(Boolean),
        ['server_started', 'shutdown_started', 'shutdown_complete'],
      );
      assert.match(received, /^HTTP\/1\.1 \d{3} /, 'the post was answered');
      assert.match(received, /\r\nConnection: close\r\n/i, 'telling the client to go');
      socket.destroy();
    } finally {
      child?.kill('SIGKILL');
    }
  });

  it('is not held up by a connection that never sent a request (a browser opens spare ones)', async () => {
    const proc = await startProcess({ ...envWithout('NODE_ENV'), LOG_LEVEL: 'info' });
    let child: ChildProcess | undefined = proc.child;
    try {
      const spare = connect(proc.port, '127.0.0.1');
      await once(spare, 'connect');
      spare.on('error', () => {});
      const started = Date.now();
      proc.child.kill('SIGTERM');
      assert.equal(await proc.exited, 0);
      child = undefined;
      // Without closing it, the exit waits for the 10 s headers time-out.
      assert.ok(Date.now() - started < 2000, `exited after ${Date.now() - started} ms`);
      spare.destroy();
    } finally {
      child?.kill('SIGKILL');
    }
  });

  it('sends no stack or internal message with NODE_ENV unset', async () => {
    const proc = await startProcess({ ...envWithout('NODE_ENV'), LOG_LEVEL: 'info' });
    try {
      for (const path of ['/proef/kapot', '/proef/grens', '/proef/onbeschikbaar']) {
        const res = await get(proc.port, path);
        assert.doesNotMatch(res.body, new RegExp(`${INTERNAL_MESSAGE.slice(0, 12)}|secret\\.ts|\\bat \\S+ \\(|data-msg|data-stck`), path);
      }
    } finally {
      proc.child.kill('SIGINT');
      assert.equal(await proc.exited, 0);
    }
  });
});

describe('configuration (product.md §12)', () => {
  it('refuses bad values with a clear message and exit 1', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, PORT: 'abc', LOG_LEVEL: 'loud' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 1);
    assert.match(stderr, /PORT must be an integer from 0 to 65535, got "abc"/);
    assert.match(stderr, /LOG_LEVEL must be one of .*got "loud"/);
  });
});

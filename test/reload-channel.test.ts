/**
 * The reload channel and the build feed behind it (docs/development.md §2), in the real app given a
 * development build, as `npm run dev` runs it.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import express from 'express';
import type { AssetsSource } from '../src/assets/source.js';
import { developmentApp } from '../src/dev/app.js';
import { developmentAssets, type BuildFeed } from '../src/dev/feed.js';
import type { BuildManifest } from '../protocol/manifest.js';
import { Lifecycle } from '../src/lifecycle.js';
import { reloadChannel } from '../src/dev/reload-channel.js';
import { testBuild } from './fixtures/island-routes.js';
import { raw, useApp, within } from './helpers/app.js';

/** An open event stream and what it has sent so far. */
interface Stream {
  res: IncomingMessage;
  text(): string;
  /** Waits until the stream has sent `pattern`. */
  until(pattern: RegExp, ms?: number): Promise<void>;
  closed: Promise<void>;
}

function openStream(port: number, path = '/_eiland/reload'): Promise<Stream> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      const closed = new Promise<void>((r) => res.on('close', () => r()));
      resolve({
        res,
        text: () => text,
        closed,
        async until(pattern, ms = 2000) {
          const end = Date.now() + ms;
          while (!pattern.test(text)) {
            if (Date.now() > end) throw new Error(`no ${pattern} within ${ms} ms in:\n${text}`);
            await new Promise((r) => setTimeout(r, 10));
          }
        },
      });
    })
      .on('error', reject)
      .end();
  });
}

describe('the reload channel in a development app (docs/development.md §2)', () => {
  let build: Awaited<ReturnType<typeof testBuild>> | undefined;
  let assets: AssetsSource & { feed: BuildFeed };
  const lifecycle = new Lifecycle('ready');
  const app = useApp(async () => {
    build = await testBuild({ development: true });
    assets = developmentAssets(build.dir);
    return { assets, lifecycle, wrap: (production) => developmentApp(production, { feed: assets.feed, lifecycle }) };
  });
  after(() => build?.remove());

  it('is an unbuffered event stream that greets with the build id open pages should show', async () => {
    const stream = await openStream(app.port);
    try {
      assert.equal(stream.res.statusCode, 200);
      assert.equal(stream.res.headers['content-type'], 'text/event-stream; charset=utf-8');
      assert.equal(stream.res.headers['x-accel-buffering'], 'no');
      assert.equal(stream.res.headers['cache-control'], 'no-cache, no-transform');
      await stream.until(/event: hello\n/);
      assert.equal(stream.text(), `event: hello\ndata: ${JSON.stringify({ id: assets.feed.id })}\n\n`);
      assert.match(assets.feed.id, new RegExp(`^${assets.feed.manifest.buildId}-[0-9a-f]{8}$`), 'the build and this server process');
    } finally {
      stream.res.destroy();
    }
  });

  it('pages carry the reload client and the id they show; page data does not', async () => {
    const html = (await raw(app.port, '/over')).body;
    assert.ok(assets.feed.manifest.reload, 'a development build has the reload client');
    assert.ok(html.includes(`<script type="module" src="${assets.feed.manifest.reload.file}"`), 'the reload client');
    assert.ok(html.includes(`<meta name="eiland-build" content="${assets.feed.id}"/>`), 'the id');
    const data = (await raw(app.port, '/over', { headers: { 'X-Eiland-Data': '1' } })).body;
    assert.doesNotMatch(data, /eiland-reload|eiland-build/);
  });

  it('announces a finished rebuild with the new id, and a failed one with what the build printed', async () => {
    const stream = await openStream(app.port);
    try {
      await stream.until(/event: hello/);
      const next: BuildManifest = { ...assets.feed.manifest, buildId: 'NieuweBouw00' };
      assets.feed.receive({ type: 'build-failed', message: 'islands/X.tsx:3:7: ERROR: Expected ";"' });
      await stream.until(/event: build-failed\ndata: \{"message":"islands\/X\.tsx:3:7: ERROR: Expected \\";\\""\}\n\n/);
      // A page opened while the build fails learns it at once.
      const late = await openStream(app.port);
      await late.until(/event: hello\n[^]*event: build-failed\n/);
      late.res.destroy();
      assets.feed.receive({ type: 'client-built', manifest: next });
      await stream.until(/event: reload\ndata: \{"id":"NieuweBouw00-[0-9a-f]{8}"\}\n\n/);
      assert.equal(assets.feed.failure, undefined, 'a good build ends the failure');
      assert.match((await raw(app.port, '/over')).body, /<meta name="eiland-build" content="NieuweBouw00-/, 'pages now show the new build');
    } finally {
      stream.res.destroy();
    }
  });

  it('ignores messages that are not a build', () => {
    const before = assets.feed.id;
    for (const message of [null, 'reload', { type: 'client-built' }, { type: 'build-failed', message: 42 }, { type: 'other' }]) assets.feed.receive(message);
    assert.equal(assets.feed.id, before);
    assert.equal(assets.feed.failure, undefined);
  });

  it('answers HEAD without holding the connection, and other methods with 405', async () => {
    const head = await raw(app.port, '/_eiland/reload', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-type'], 'text/event-stream; charset=utf-8');
    const post = await raw(app.port, '/_eiland/reload', { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.allow, 'GET, HEAD');
  });

  it('ends every stream when shutdown begins', async () => {
    const stream = await openStream(app.port);
    await stream.until(/event: hello/);
    lifecycle.state = 'stopping';
    await within(stream.closed, 2000, 'the end of the stream once shutdown began');
  });
});

describe('the reload channel heartbeat', () => {
  it('sends a comment line at its interval', async () => {
    const build = await testBuild({ development: true });
    const { feed } = developmentAssets(build.dir);
    const app = express().use(reloadChannel({ feed, lifecycle: new Lifecycle('ready'), heartbeatMs: 50 }, express.Router()));
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const stream = await openStream((server.address() as AddressInfo).port);
    try {
      await stream.until(/(: heartbeat\n\n[^]*){3}/, 1000);
    } finally {
      stream.res.destroy();
      server.closeAllConnections();
      server.close();
      await build.remove();
    }
  });
});

/**
 * The development runner's front (docs/development.md §1–§2): the reload channel it serves
 * itself, and every other request forwarded to the development server behind it, which a restart
 * swaps without ending the channel's streams.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { BuildFeed } from '../src/dev/feed.js';
import { startFront, type Front } from '../src/dev/front.js';
import { developmentAssets, type PageBuild } from '../src/dev/page-build.js';
import { developmentSteps } from '../src/dev/steps.js';
import { testBuild } from './fixtures/island-routes.js';
import { raw, useApp, waitFor, within } from './helpers/app.js';
import { watchPaths } from './helpers/paths.js';

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
        until: (pattern, ms = 2000) =>
          waitFor(() => pattern.test(text), ms).catch(() => {
            throw new Error(`no ${pattern} within ${ms} ms in:\n${text}`);
          }),
      });
    })
      .on('error', reject)
      .end();
  });
}

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

/** The port a front listens on. */
const portOf = (front: Front) => Number(new URL(front.url).port);

describe('the reload channel and the development server behind the front (docs/development.md §2)', () => {
  let build: Awaited<ReturnType<typeof testBuild>> | undefined;
  let pages: PageBuild;
  const feed = new BuildFeed('erste-00000000');
  let front: Front;
  const app = useApp(async () => {
    build = await testBuild({ development: true });
    const assets = developmentAssets(build.dir);
    pages = assets.build;
    return { assets, steps: developmentSteps(pages) };
  });
  before(async () => {
    front = await startFront({ host: '127.0.0.1', port: 0, feed });
    front.target = app.port;
    pages.receive({ type: 'build', manifest: pages.manifest, id: feed.id });
  });
  after(async () => {
    await front?.close();
    await build?.remove();
  });

  it('is an unbuffered event stream that greets with the build id open pages should show', async () => {
    const stream = await openStream(portOf(front));
    try {
      assert.equal(stream.res.statusCode, 200);
      assert.equal(stream.res.headers['content-type'], 'text/event-stream; charset=utf-8');
      assert.equal(stream.res.headers['x-accel-buffering'], 'no');
      assert.equal(stream.res.headers['cache-control'], 'no-cache, no-transform');
      await stream.until(/event: hello\n/);
      assert.equal(stream.text(), `event: hello\ndata: ${JSON.stringify({ id: 'erste-00000000' })}\n\n`);
    } finally {
      stream.res.destroy();
    }
  });

  it('forwards pages, which carry the reload client and the id they show; page data does not', async () => {
    const html = (await raw(portOf(front), '/over')).body;
    assert.ok(pages.manifest.reload, 'a development build has the reload client');
    assert.ok(html.includes(`<script type="module" src="${pages.manifest.reload.file}"`), 'the reload client');
    assert.ok(html.includes(`<meta name="eiland-build" content="${feed.id}"/>`), 'the id');
    const data = (await raw(portOf(front), '/over', { headers: { 'X-Eiland-Data': '1' } })).body;
    assert.doesNotMatch(data, /eiland-reload|eiland-build/);
  });

  it('announces a good build with its id, and a failed one with what the build printed', async () => {
    const stream = await openStream(portOf(front));
    try {
      await stream.until(/event: hello/);
      feed.fail('islands/X.tsx:3:7: ERROR: Expected ";"');
      await stream.until(/event: build-failed\ndata: \{"message":"islands\/X\.tsx:3:7: ERROR: Expected \\";\\""\}\n\n/);
      // A page opened while the build fails learns it at once.
      const late = await openStream(portOf(front));
      await late.until(/event: hello\n[^]*event: build-failed\n/);
      late.res.destroy();
      assert.equal(pages.receive({ type: 'build', manifest: { ...pages.manifest, buildId: 'NieuweBouw00' }, id: 'NieuweBouw00-00000001' }), 'NieuweBouw00-00000001');
      feed.show('NieuweBouw00-00000001');
      await stream.until(/event: reload\ndata: \{"id":"NieuweBouw00-00000001"\}\n\n/);
      assert.equal(feed.failure, undefined, 'a good build ends the failure');
      assert.match((await raw(portOf(front), '/over')).body, /<meta name="eiland-build" content="NieuweBouw00-00000001"/, 'pages now show the new build');
    } finally {
      stream.res.destroy();
    }
  });

  it('a server process ignores IPC messages that are not a build', () => {
    const before = { id: pages.id, manifest: pages.manifest };
    for (const message of [null, 'reload', { type: 'build' }, { type: 'build', id: 'x' }, { type: 'build', id: 7, manifest: {} }, { type: 'other' }]) {
      assert.equal(pages.receive(message), undefined);
    }
    assert.deepEqual({ id: pages.id, manifest: pages.manifest }, before);
  });

  /** A page asked through the front, with whether Express answered it behind the front, its log line's `render` and its CSP nonce. */
  let asked = 0;
  async function page(paths: Map<string, boolean>, path: string) {
    const tag = `dev${++asked}`;
    const res = await raw(portOf(front), path, { headers: { 'User-Agent': BROWSER, 'X-Test': tag } });
    await waitFor(() => paths.has(tag));
    const requestId = String(res.headers['x-request-id']);
    const line = app.logs().find((l) => l.reqId === requestId && l.msg === 'request completed');
    const nonce = /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1];
    return { ...res, viaExpress: paths.get(tag), render: line?.render, nonce };
  }

  it('serves a kept page beside Express, as production does, with the reload client and its own nonce', async () => {
    const paths = watchPaths(app.server);
    await page(paths, '/voorwaarden');
    const kept = await page(paths, '/voorwaarden');
    assert.deepEqual([kept.status, kept.viaExpress, kept.render], [200, false, 'hit']);
    assert.ok(kept.nonce, 'a CSP nonce');
    assert.ok(kept.body.includes(`<script type="module" src="${pages.manifest.reload!.file}" nonce="${kept.nonce}">`), 'the reload client, with the nonce of this response');
    assert.ok(kept.body.includes(`<meta name="eiland-build" content="${pages.id}"/>`), 'the id');
    assert.deepEqual(app.logs().filter((l) => l.event === 'render_cache_mismatch'), [], 'the verify guard found the hit the same as a fresh render');
  });

  it('keeps a page per id it shows: a new id is a new version, rendered, not the page of the id before', async () => {
    const paths = watchPaths(app.server);
    await page(paths, '/privacy');
    assert.equal((await page(paths, '/privacy')).render, 'hit');
    // The same client build, another server process: only the id in the head differs.
    pages.receive({ type: 'build', manifest: pages.manifest, id: `${pages.manifest.buildId}-0000000a` });
    const next = await page(paths, '/privacy');
    assert.ok(next.body.includes(`<meta name="eiland-build" content="${pages.manifest.buildId}-0000000a"/>`), 'the new id');
    assert.deepEqual([next.viaExpress, next.render], [true, 'miss']);
    assert.equal((await page(paths, '/privacy')).viaExpress, false, 'then kept again');
    assert.deepEqual(app.logs().filter((l) => l.event === 'render_cache_mismatch'), []);
  });

  it('answers HEAD without holding the connection, and other methods with 405', async () => {
    const head = await raw(portOf(front), '/_eiland/reload', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-type'], 'text/event-stream; charset=utf-8');
    const post = await raw(portOf(front), '/_eiland/reload', { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.allow, 'GET, HEAD');
  });

  it('keeps its streams open while the server behind it is swapped, and ends them when it closes', async () => {
    const own = await startFront({ host: '127.0.0.1', port: 0, feed: new BuildFeed('a-1') });
    const stream = await openStream(portOf(own));
    try {
      await stream.until(/event: hello/);
      assert.equal((await raw(portOf(own), '/over')).status, 503, 'no server yet');
      own.target = app.port;
      assert.equal((await raw(portOf(own), '/over')).status, 200);
      own.target = undefined;
      own.target = app.port;
      assert.equal(stream.res.destroyed, false, 'the stream outlives the swap');
    } finally {
      await own.close();
    }
    await within(stream.closed, 2000, 'the end of the stream once the front closed');
  });
});

describe('the reload channel heartbeat', () => {
  it('sends a comment line at its interval', async () => {
    const front = await startFront({ host: '127.0.0.1', port: 0, feed: new BuildFeed('a-1'), heartbeatMs: 50 });
    const stream = await openStream(portOf(front));
    try {
      await stream.until(/(: heartbeat\n\n[^]*){3}/, 1000);
    } finally {
      await front.close();
    }
  });
});

describe('forwarding through the front (docs/development.md §1)', () => {
  let upstream: Server;
  let front: Front;
  before(async () => {
    // A server that answers with what it received, in two chunks, and two cookies.
    upstream = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.writeHead(201, { 'Content-Type': 'application/json', 'Set-Cookie': ['a=1; Path=/', 'b=2; Path=/'], 'Keep-Alive': 'timeout=7' });
        res.write(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }).slice(0, 10));
        setTimeout(() => res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }).slice(10)), 20);
      });
    }).listen(0, '127.0.0.1');
    await once(upstream, 'listening');
    front = await startFront({ host: '127.0.0.1', port: 0, feed: new BuildFeed('a-1') });
    front.target = (upstream.address() as AddressInfo).port;
  });
  after(async () => {
    await front.close();
    upstream.closeAllConnections();
    upstream.close();
  });

  it('passes method, target, headers and body, and the whole answer with every cookie; not the hop-by-hop headers', async () => {
    const res = await raw(portOf(front), '/formulier?x=1&y=%2F', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: 'c=3', Connection: 'keep-alive, X-Hop', 'X-Hop': 'weg', 'X-End': 'blijft' },
      body: 'naam=Jan&stad=Utrecht',
    });
    assert.equal(res.status, 201);
    assert.deepEqual(res.headers['set-cookie'], ['a=1; Path=/', 'b=2; Path=/']);
    assert.notEqual(res.headers['keep-alive'], 'timeout=7', 'the upstream connection’s own header');
    const seen = JSON.parse(res.body) as { method: string; url: string; headers: Record<string, string>; body: string };
    assert.equal(seen.method, 'POST');
    assert.equal(seen.url, '/formulier?x=1&y=%2F');
    assert.equal(seen.body, 'naam=Jan&stad=Utrecht');
    assert.equal(seen.headers.cookie, 'c=3');
    assert.equal(seen.headers['x-end'], 'blijft');
    assert.equal(seen.headers['x-hop'], undefined, 'a header the Connection line names stays on its connection');
    assert.equal(seen.headers.host, `127.0.0.1:${portOf(front)}`, 'the Host the browser sent');
  });

  it('answers 502 when the server behind it does not answer', async () => {
    const gone = createServer().listen(0, '127.0.0.1');
    await once(gone, 'listening');
    const port = (gone.address() as AddressInfo).port;
    gone.close();
    await once(gone, 'close');
    const previous = front.target;
    front.target = port;
    try {
      const res = await raw(portOf(front), '/over');
      assert.equal(res.status, 502);
      assert.match(res.body, /did not answer/);
    } finally {
      front.target = previous;
    }
  });
});

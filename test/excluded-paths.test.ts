/**
 * The excluded paths (docs/filter.md §1–§2): one table names them exactly (no prefix tricks), and what
 * an excluded path's handler does not serve ends as plain text there, never as a page.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import express, { type RequestHandler } from 'express';
import { requestContext } from '../src/context.js';
import { excludedPath } from '../src/filter/excluded.js';
import { matcher } from '../src/filter/matcher.js';
import { errorHandler } from '../src/render/error-handler.js';

describe('excludedPath: the one table of excluded paths (docs/filter.md §1)', () => {
  const named = { '/assets/app.css': 'assets', '/assets/images/a.png': 'assets', '/_image': 'image', '/favicon.ico': 'favicon' } as const;
  for (const [path, name] of Object.entries(named)) it(`names ${path} ${name}`, () => assert.equal(excludedPath(path), name));
  const excluded = ['/assets/app.css', '/assets/images/a.png', '/assets/x/y/z.js', '/_image', '/favicon.ico'];
  const filtered = ['/', '/over', '/assets', '/assetsx/a.js', '/assets%2Fa.js', '/_imagex', '/_image/x', '/favicon.icox', '/Favicon.ico', '/ASSETS/a.css', '/x/assets/a.css', '/x/favicon.ico', '/_Image'];
  for (const path of excluded) it(`excludes ${path}`, () => assert.notEqual(excludedPath(path), undefined));
  for (const path of filtered) it(`filters ${path}`, () => assert.equal(excludedPath(path), undefined));
});

describe('matcher and error handler: what an excluded path’s handler does not serve ends as plain text', () => {
  const handlers = (fault: unknown) => ({
    assets: ((_req, _res, next) => next()) as RequestHandler,
    image: ((_req, _res, next) => next(fault)) as RequestHandler,
    favicon: ((_req, _res, next) => next(Object.assign(new Error('gone'), { status: 410 }))) as RequestHandler,
  });
  async function answer(path: string, fault: unknown = new Error('kapot')) {
    const app = express();
    app.use(requestContext());
    app.use(matcher({ excluded: handlers(fault) }));
    app.use((_req, res) => res.status(200).send('<main>a page</main>'));
    app.use(
      errorHandler(
        Object.assign(
          () => {
            throw new Error('an excluded path never renders a page');
          },
          { caching: false, hit: () => false },
        ),
      ),
    );
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
      return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
    } finally {
      server.close();
    }
  }

  it('passed on: 404 Not Found', async () => {
    assert.deepEqual(await answer('/assets/x.js'), { status: 404, type: 'text/plain; charset=utf-8', body: 'Not Found' });
  });
  it('a 4xx error: its status', async () => {
    assert.deepEqual(await answer('/favicon.ico'), { status: 410, type: 'text/plain; charset=utf-8', body: 'Gone' });
  });
  it('any other error: 500, never a page', async () => {
    assert.deepEqual(await answer('/_image?url=x'), { status: 500, type: 'text/plain; charset=utf-8', body: 'Internal Server Error' });
  });
});

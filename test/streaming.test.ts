/**
 * Streaming (docs/streaming.md): the shell first with the fallback, or the whole document at once
 * (a count already known, a bot); renders aborted on a disconnect or a time-out, and the status
 * decided before the first byte.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, it } from 'node:test';
import { STYLESHEET_WAIT } from '../views/Document.js';
import { raw, waitFor, withApp } from './helpers/app.js';

/** Eiland's own inline script on every page: the parse's wait for the stylesheet. */
const PARSE_WAIT = new RegExp(`<script nonce="[^"]+">${STYLESHEET_WAIT}</script>`);

/** A promise with its resolver exposed, so a test decides when the boundary resolves. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Opens `path` and collects chunks, calling `onChunk` for each. */
function stream(port: number, path: string, onChunk: (chunk: string, all: string[]) => void, headers: Record<string, string> = {}) {
  const chunks: string[] = [];
  const req = request({ host: '127.0.0.1', port, path, headers, agent: false });
  const done = new Promise<{ status: number; chunks: string[] }>((resolve, reject) => {
    req.on('response', (res) => {
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        chunks.push(c);
        onChunk(c, chunks);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, chunks }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  req.end();
  return { req, done };
}

describe('streaming (docs/streaming.md)', () => {
  it('sends the shell with the fallback before the boundary content', async () => {
    const count = deferred<number>();
    await withApp({ countRegistrations: () => count.promise }, async (app) => {
      const { done } = stream(app.port, '/', (_c, all) => {
        if (all.length === 1) count.resolve(7); // resolve only once the shell has arrived
      });
      const { status, chunks } = await done;
      assert.equal(status, 200);
      assert.match(chunks[0]!, /<h1>Welkom bij Eiland<\/h1>/);
      assert.match(chunks[0]!, /Het aantal aanmeldingen is nog niet bekend\./);
      assert.doesNotMatch(chunks[0]!, /Er zijn 7 aanmeldingen/);
      assert.match(chunks.slice(1).join(''), /Er zijn 7 aanmeldingen\./);
    });
  });

  it('puts a count already known when the render starts in the shell: no fallback, no reveal script', async () => {
    // SQLite answers at once; the boundary then needs no second flush, and a reader without
    // JavaScript sees the count itself (src/render/deferred.ts).
    await withApp({ countRegistrations: () => Promise.resolve(7) }, async (app) => {
      const res = await raw(app.port, '/');
      assert.equal(res.status, 200);
      assert.match(res.body, /<h2>Aanmeldingen<\/h2><!--\$--><p class="count">Er zijn 7 aanmeldingen\.<\/p><!--\/\$-->/);
      assert.doesNotMatch(res.body, /nog niet bekend|<!--\$\?-->|<template|\$RC|<div hidden/);
      assert.doesNotMatch(res.body.replace(PARSE_WAIT, ''), /<script(?![^>]*\bsrc=)/, 'no inline script but the wait for the stylesheet');
    });
  });

  it('gives a bot the whole document at once, with no pending boundary or reveal script', () =>
    withApp({ countRegistrations: () => new Promise((r) => setTimeout(() => r(7), 200)) }, async (app) => {
      const res = await raw(app.port, '/', { headers: { 'User-Agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' } });
      assert.equal(res.status, 200);
      assert.match(res.body, /<h2>Aanmeldingen<\/h2><!--\$--><p class="count">Er zijn 7 aanmeldingen\.<\/p><!--\/\$-->/);
      assert.doesNotMatch(res.body, /<!--\$\?-->|<template|\$RC|<div hidden/);
      assert.doesNotMatch(res.body.replace(PARSE_WAIT, ''), /<script(?![^>]*\bsrc=)/, 'no inline script but the wait for the stylesheet');
      assert.equal(res.headers['x-accel-buffering'], undefined, 'nothing streamed, nothing to pass on early');
      const person = await raw(app.port, '/');
      assert.equal(person.headers['x-accel-buffering'], 'no', 'a streamed page tells a reverse proxy not to buffer it');
    }));

  it('aborts the render when the client disconnects, and logs it at warn', () =>
    withApp({ countRegistrations: () => new Promise(() => {}) }, async (app) => {
      const { req, done } = stream(app.port, '/', () => req.destroy(), { 'X-Request-Id': 'weg-1' });
      await done.catch(() => undefined);
      await waitFor(() => app.logs().some((l) => l.event === 'render_aborted'));
      const line = app.logs().find((l) => l.event === 'render_aborted');
      assert.equal(line?.level, 40);
      assert.equal(line?.reason, 'client_disconnected');
      assert.equal(line?.reqId, 'weg-1');
    }));

  it('renders nothing for a client gone while the loader ran, and logs it at once as a disconnect', () =>
    withApp(
      {
        extraRoutes: [
          {
            path: '/proef/weg',
            kind: 'ssr',
            islands: [],
            title: 'Weg',
            description: 'Een proefpagina voor de tests.',
            loader: () => new Promise<object>((r) => setTimeout(() => r({}), 200)),
            View: () => null,
          },
        ],
      },
      async (app) => {
        const { req, done } = stream(app.port, '/proef/weg', () => undefined, { 'X-Request-Id': 'weg-2' });
        setTimeout(() => req.destroy(), 50);
        await done.catch(() => undefined);
        await waitFor(() => app.logs().some((l) => l.event === 'render_aborted' && l.reqId === 'weg-2'), 2000);
        const line = app.logs().find((l) => l.event === 'render_aborted' && l.reqId === 'weg-2');
        assert.equal(line?.reason, 'client_disconnected');
        assert.equal(line?.route, '/proef/weg');
      },
    ));

  it('aborts a render that does not finish in time, ends the page with the fallback, logs it', () =>
    withApp({ countRegistrations: () => new Promise(() => {}), renderTimeoutMs: 150 }, async (app) => {
      const res = await raw(app.port, '/', { headers: { 'X-Request-Id': 'traag-1' } });
      assert.equal(res.status, 200);
      assert.match(res.body, /Het aantal aanmeldingen is nog niet bekend\./);
      assert.match(res.body, /<\/html>$/);
      assert.doesNotMatch(res.body, /RenderAborted|timeout/);
      const line = app.logs().find((l) => l.event === 'render_aborted');
      assert.equal(line?.reason, 'timeout');
      assert.equal(line?.reqId, 'traag-1');
    }));

  it('says the count is unavailable when it cannot be read', () =>
    withApp({ countRegistrations: () => Promise.reject(new Error('database down')) }, async (app) => {
      const res = await raw(app.port, '/');
      assert.equal(res.status, 200);
      assert.match(res.body, /Het aantal aanmeldingen is nu niet beschikbaar\./);
      assert.doesNotMatch(res.body, /database down/);
    }));

  it('decides the status before the first byte: a failing loader is a clean 500', () =>
    withApp({ extraRoutes: [{ path: '/proef/fout', kind: 'ssr', islands: [], title: 'x', description: 'Een proefpagina voor de tests.', loader: () => Promise.reject(new Error('stuk')), View: () => null }] }, async (app) => {
      const res = await raw(app.port, '/proef/fout');
      assert.equal(res.status, 500);
      assert.match(res.body, /<title>500: Internal Server Error<\/title>/);
    }));
});

/**
 * The static handlers of two excluded paths (docs/pages.md §1, docs/filter.md §2, §8): `/assets/…` (build output:
 * content-hashed, immutable, precompressed; then public files: ETag, revalidated) and
 * `/favicon.ico`. What they cannot serve they pass on, and the matcher ends it as a plain 404:
 * an excluded path never reaches a page.
 */
import type { ServerResponse } from 'node:http';
import express, { Router, type RequestHandler } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { realPathInside } from './real-path.js';

/** Options of {@link staticAssets}. */
interface AssetsOptions {
  /** Folder of content-hashed build output (served as `/assets/…`). */
  buildDir: string;
  /** Folder of public files (served as `/assets/…`, and `favicon.ico`). */
  publicDir: string;
}

/**
 * The headers of a build asset, whichever variant is sent. express-static-gzip names the charset
 * of a compressed twin `UTF-8` where serve-static names the plain file's `utf-8`: one spelling,
 * so every variant answers the same `Content-Type` (docs/pages.md §2).
 */
function assetHeaders(res: ServerResponse): void {
  const type = res.getHeader('Content-Type');
  if (typeof type === 'string') res.setHeader('Content-Type', type.replace('charset=UTF-8', 'charset=utf-8'));
}

/**
 * Serves from a folder only what lies below it: a path a symbolic link leads out of the folder is
 * passed on, as a missing file is (serve-static follows links wherever they go).
 * @param root the folder `serve` serves
 * @param serve its static handler, mounted where `req.path` is the path below `root`
 */
function confined(root: string, serve: RequestHandler): RequestHandler {
  return function confined(req, res, next) {
    let segments: string[];
    try {
      segments = decodeURIComponent(req.path).split('/');
    } catch {
      next();
      return;
    }
    void realPathInside(root, segments).then((file) => (file === undefined ? next() : serve(req, res, next)));
  };
}

/**
 * The handler of `/assets/…`: build output first, then public files. A folder is no file: its
 * path is passed on (a plain 404), never redirected to itself with a slash, which the canonical
 * paths would send straight back (docs/pages.md §5).
 * @example matcher({ excluded: { assets: staticAssets(options), … } })
 */
export function staticAssets({ buildDir, publicDir }: AssetsOptions): Router {
  const router = Router({ caseSensitive: true, strict: true });
  router.use(
    '/assets',
    // The .br/.gz twins the build writes (build/compress.mjs), chosen by Accept-Encoding (with Vary).
    confined(
      buildDir,
      expressStaticGzip(buildDir, {
        enableBrotli: true,
        orderPreference: ['br', 'gzip'],
        index: false,
        serveStatic: { index: false, redirect: false, immutable: true, maxAge: '1y', setHeaders: assetHeaders },
      }),
    ),
    confined(
      publicDir,
      express.static(publicDir, {
        index: false,
        redirect: false,
        dotfiles: 'ignore',
        setHeaders(res) {
          res.setHeader('Cache-Control', 'public, no-cache');
        },
      }),
    ),
  );
  return router;
}

/**
 * The handler of `/favicon.ico`, from the public folder (revalidated).
 * @param publicDir folder of public files
 */
export function favicon(publicDir: string): RequestHandler {
  const send: RequestHandler = (_req, res, next) => res.sendFile('favicon.ico', { root: publicDir, headers: { 'Cache-Control': 'public, no-cache' } }, (err) => err && next());
  const guarded = confined(publicDir, send);
  return function favicon(req, res, next) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    guarded(req, res, next);
  };
}

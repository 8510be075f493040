/**
 * The handler for excluded paths (product.md §1, §2): build output under
 * `/assets/` (content-hashed, immutable, precompressed), public files under `/assets/`
 * (ETag, revalidated) and `/favicon.ico`. Whatever it cannot serve ends here
 * as a plain 404: an excluded path never reaches a page.
 */
import type { ServerResponse } from 'node:http';
import express, { Router } from 'express';
import expressStaticGzip from 'express-static-gzip';

/** Options of {@link assetsHandler}. */
export interface AssetsOptions {
  /** Folder of content-hashed build output (served as `/assets/…`). */
  buildDir: string;
  /** Folder of public files (served as `/assets/…`, and `favicon.ico`). */
  publicDir: string;
}

const nosniff = (res: ServerResponse) => res.setHeader('X-Content-Type-Options', 'nosniff');

/**
 * Creates the excluded-path handler; it always answers, never calls `next`.
 * @example matcher({ excluded: assetsHandler({ buildDir: 'dist/assets', publicDir: 'public' }) })
 */
export function assetsHandler({ buildDir, publicDir }: AssetsOptions): Router {
  const router = Router({ caseSensitive: true, strict: true });
  router.use(
    '/assets',
    // The .br/.gz twins build.mjs writes, chosen by Accept-Encoding (with Vary).
    expressStaticGzip(buildDir, {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: false,
      serveStatic: { index: false, immutable: true, maxAge: '1y', setHeaders: nosniff },
    }),
    express.static(publicDir, {
      index: false,
      dotfiles: 'ignore',
      setHeaders(res) {
        nosniff(res);
        res.setHeader('Cache-Control', 'public, no-cache');
      },
    }),
  );
  router.get('/favicon.ico', function favicon(_req, res, next) {
    nosniff(res);
    res.sendFile('favicon.ico', { root: publicDir, headers: { 'Cache-Control': 'public, no-cache' } }, (err) => err && next());
  });
  router.use(function assetNotFound(_req, res) {
    nosniff(res);
    res.status(404).type('text/plain').send('Not Found');
  });
  return router;
}

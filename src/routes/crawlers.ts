/**
 * `/robots.txt` and `/sitemap.xml` (docs/pages.md §9), both made from the route table: the
 * sitemap lists every public page that may be indexed, robots.txt keeps crawlers away from the
 * pages whose address grants access to personal data. Absolute URLs come from `PUBLIC_ORIGIN`
 * alone: without it there is no sitemap and robots.txt names none.
 */
import type { Router } from 'express';
import { methodNotAllowed, routeName } from './router.js';
import type { AnyPageRoute } from '../route-table.js';

/** Both files change only with a deployment: caches may keep them for an hour. */
const CACHE_CONTROL = 'public, max-age=3600';

/** The paths of the pages a sitemap lists: no parameters, no `noindex`, in route-table order. */
function sitemapPaths(routes: readonly AnyPageRoute[]): string[] {
  return routes.filter((r) => !r.path.includes(':') && r.noindex === undefined).map((r) => r.path);
}

/**
 * The text of robots.txt: everything allowed but the pages with secret parameters (their prefix,
 * e.g. `/aanmeldingen/`), and the sitemap's address where there is one.
 * @param routes the site's route table
 * @param origin the canonical public origin, or undefined
 */
function robotsTxt(routes: readonly AnyPageRoute[], origin: string | undefined, disallowed: readonly string[]): string {
  // Each prefix once: the confirmation and its erasure share `/aanmeldingen/`.
  const secret = [...new Set(routes.filter((r) => r.secretParams !== undefined && r.secretParams.length > 0).map((r) => r.path.slice(0, r.path.indexOf(':'))))];
  const lines = ['User-agent: *', 'Allow: /', ...[...secret, ...disallowed].map((prefix) => `Disallow: ${prefix}`)];
  if (origin !== undefined) lines.push('', `Sitemap: ${origin}/sitemap.xml`);
  return `${lines.join('\n')}\n`;
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The text of sitemap.xml (the sitemaps.org protocol): one `<url><loc>` per page.
 * @param routes the site's route table
 * @param origin the canonical public origin, e.g. `https://eiland.example`
 */
function sitemapXml(routes: readonly AnyPageRoute[], origin: string): string {
  const urls = sitemapPaths(routes).map((path) => `<url><loc>${escapeXml(origin + path)}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** Options of {@link addCrawlerRoutes}. */
export interface CrawlerRoutesOptions {
  /** The site's own route table (not test pages). */
  routes: readonly AnyPageRoute[];
  /** The canonical public origin (the first of `PUBLIC_ORIGIN`), or undefined. */
  origin: string | undefined;
  /** Prefixes no crawler is to visit besides the secret pages', e.g. beheer's (docs/beheer.md §3). */
  disallowed?: readonly string[];
}

/**
 * Adds `GET /robots.txt` and, with an origin, `GET /sitemap.xml` (and HEAD; other methods 405).
 * Both go through the request filter like any page (docs/pages.md §9).
 * @param router where the routes are added (see `addHealthRoutes`)
 * @example addCrawlerRoutes(routes, { routes: site, origin: config.publicOrigins?.[0] })
 */
export function addCrawlerRoutes(router: Router, { routes, origin, disallowed = [] }: CrawlerRoutesOptions): void {
  file(router, '/robots.txt', 'text/plain; charset=utf-8', robotsTxt(routes, origin, disallowed));
  if (origin !== undefined) file(router, '/sitemap.xml', 'application/xml; charset=utf-8', sitemapXml(routes, origin));
}

/** Adds a fixed text at a path: GET and HEAD answer it, other methods get 405. */
function file(router: Router, path: string, type: string, text: string): void {
  router
    .route(path)
    .all(routeName(path))
    .get(function crawlerFile(_req, res) {
      res.set('Cache-Control', CACHE_CONTROL).type(type).send(text);
    })
    .all(methodNotAllowed('GET, HEAD'));
}

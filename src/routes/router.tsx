/**
 * Builds the Express router from the route table (product.md §1, §3):
 * GET/HEAD render the page, POST runs the action after body parsing and the
 * cross-site protection, every other method is a 405 with `Allow`.
 */
import express, { Router, type RequestHandler } from 'express';
import { HttpError } from '../errors.js';
import type { CsrfTokens } from '../filter/cross-site.js';
import type { Render } from '../render/document.js';
import type { AnyPageRoute } from './types.js';

/** Cache-Control by route kind (product.md §1). */
const CACHE_CONTROL = { ssr: 'private, no-store', static: 'private, no-cache' } as const;

/** Site name appended to every page title (product.md §1). */
export const TITLE_SUFFIX = ' · Eiland';

/** Options of {@link pageRouter}. */
export interface PageRouterOptions {
  routes: AnyPageRoute[];
  render: Render;
  csrf: CsrfTokens;
}

/**
 * Answers any method not registered for a known path with 405 and `Allow`.
 * @param allow the methods of the path, e.g. `GET, HEAD`
 */
export function methodNotAllowed(allow: string): RequestHandler {
  return function methodNotAllowed(req, _res, next) {
    next(new HttpError(405, `${req.method} is not allowed here`, { headers: { Allow: allow } }));
  };
}

function pageHandler(route: AnyPageRoute, render: Render): RequestHandler {
  return async function page(req, res, next) {
    res.locals.route = route.path;
    try {
      const props = route.loader ? await route.loader({ req }) : {};
      const title = typeof route.title === 'function' ? route.title(props) : route.title;
      render(req, res, {
        status: 200,
        title: title + TITLE_SUFFIX,
        content: <route.View {...props} />,
        head: route.head,
        cacheControl: CACHE_CONTROL[route.kind],
        onShellError: next,
      });
    } catch (error) {
      next(error);
    }
  };
}

/**
 * The router of all pages.
 * @example app.use(pageRouter({ routes: siteRoutes(deps), render, csrf }))
 */
export function pageRouter({ routes, render, csrf }: PageRouterOptions): Router {
  const router = Router({ caseSensitive: true, strict: true });
  // product.md §4: bodies over 32 KiB → 413; no nested keys (extended: false).
  const body = express.urlencoded({ extended: false, limit: '32kb', parameterLimit: 100 });
  for (const route of routes) {
    const methods = route.action ? 'GET, HEAD, POST' : 'GET, HEAD';
    const r = router.route(route.path).get(pageHandler(route, render));
    if (route.action) {
      const named: RequestHandler = function routeName(_req, res, next) {
        res.locals.route = route.path;
        next();
      };
      r.post(named, body, csrf.protect(), route.action);
    }
    r.all(methodNotAllowed(methods));
  }
  return router;
}

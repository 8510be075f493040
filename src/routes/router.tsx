/**
 * Builds the Express router from the route table (docs/pages.md §1–§4, docs/errors.md §3):
 * GET/HEAD render the page, POST runs the route's own POST chain (src/forms/post.ts), every
 * other method is a 405 with `Allow`.
 */
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { HttpError } from '../errors.js';
import type { CsrfTokens } from '../filter/cross-site.js';
import type { RateLimits } from '../filter/rate-limit.js';
import type { Metrics } from '../metrics/index.js';
import type { Render, RenderRequest } from '../render/types.js';
import { fillProps, PLACEHOLDERS, type HoleValues } from '../render/holes.js';
import { settleDeferred } from '../render/deferred.js';
import type { AnyPageRoute, LoaderContext } from '../route-table.js';

/** Cache-Control by route kind (docs/pages.md §2). */
const CACHE_CONTROL = { ssr: 'private, no-store', static: 'private, no-cache' } as const;

/** Site name appended to every page title (docs/pages.md §3). */
export const TITLE_SUFFIX = ' · Eiland';

/** Options of {@link pageRouter}. */
interface PageRouterOptions {
  routes: AnyPageRoute[];
  render: Render;
  csrf: CsrfTokens;
  /** The per-client limits of posts. */
  limits: RateLimits;
  /** Counts form posts by outcome. */
  metrics: Metrics;
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

/** A loader's context when its page is not cached: the request's own token and fresh keys. */
function context(req: Request, res: Response): LoaderContext {
  return { req, csrfToken: () => res.locals.csrfToken, submissionKey: randomUUID };
}

/**
 * A loader's context when its page may be cached (docs/streaming.md §6): each value taken from
 * the request is recorded in `res.locals.holes` and handed to the loader as its placeholder.
 */
function holeContext(req: Request, res: Response): LoaderContext {
  const holes: HoleValues = (res.locals.holes = {});
  return {
    req,
    csrfToken() {
      holes.csrfToken ??= res.locals.csrfToken;
      return PLACEHOLDERS.csrfToken;
    },
    // One per page: a page has one form.
    submissionKey() {
      holes.submissionKey ??= randomUUID();
      return PLACEHOLDERS.submissionKey;
    },
  };
}

/** What the renderer needs to render a route's view with props and a status. */
function pageRequest(route: AnyPageRoute, status: number, props: object, onShellError: (e: unknown) => void): RenderRequest {
  const title = typeof route.title === 'function' ? route.title(props) : route.title;
  return {
    status,
    title: title + TITLE_SUFFIX,
    content: <route.View {...props} />,
    meta: { description: route.description, noindex: route.noindex !== undefined, shareImage: route.shareImage },
    cacheControl: CACHE_CONTROL[route.kind],
    islands: route.islands,
    props,
    kind: route.kind,
    onShellError,
  };
}

// Handlers are async functions: Express 5 passes a rejection to the error handler, the one
// place where an error becomes a response (src/render/error-handler.tsx).

function pageHandler(route: AnyPageRoute, render: Render): RequestHandler {
  const cached = render.caching && route.noRenderCache === undefined;
  return async function page(req, res, next) {
    const props = route.loader ? await route.loader(cached ? holeContext(req, res) : context(req, res)) : {};
    await settleDeferred(props);
    const request = pageRequest(route, 200, props, next);
    if (cached) request.cacheable = { fresh: () => pageRequest(route, 200, fillProps(props, res.locals.holes ?? {}), next) };
    render(req, res, request);
  };
}

/**
 * Names the matched route for the request's log line (`route`, docs/operations.md §2).
 * @param path the route pattern, e.g. `/aanmeldingen/:id`
 */
export function routeName(path: string): RequestHandler {
  return function routeName(_req, res, next) {
    res.locals.route = path;
    next();
  };
}

/**
 * The routes of all pages.
 * @param router where the routes are added (see `healthRouter`)
 * @returns `router`
 * @example pageRouter({ routes: siteRoutes(storage, limit, 365), render, csrf, limits, metrics }, routes)
 */
export function pageRouter({ routes, render, csrf, limits, metrics }: PageRouterOptions, router: Router): Router {
  for (const route of routes) {
    const r = router.route(route.path).all(routeName(route.path)).get(pageHandler(route, render));
    if (route.post) {
      const renderPage = (req: Request, res: Response, status: number, props: object, next: NextFunction) => render(req, res, pageRequest(route, status, props, next));
      r.post(...route.post({ renderPage, csrf, limits, metrics }));
    }
    r.all(methodNotAllowed(route.post ? 'GET, HEAD, POST' : 'GET, HEAD'));
  }
  return router;
}

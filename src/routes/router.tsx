/**
 * Builds the Express router from the route table (docs/pages.md §1–§4, docs/errors.md §3):
 * GET/HEAD render the page, POST runs the route's own POST chain (src/forms/post.ts), every
 * other method is a 405 with `Allow`.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { formTitle } from '../../protocol/forms.js';
import { HttpError } from '../errors.js';
import type { CsrfTokens, RateLimits } from '../filter/types.js';
import type { Metrics } from '../metrics/index.js';
import type { Render, RenderRequest } from '../render/types.js';
import { fillProps, PLACEHOLDERS, type HoleValues } from '../render/holes.js';
import { settleDeferred } from '../render/deferred.js';
import type { AnyPageRoute, LoaderContext } from '../route-table.js';

/** Cache-Control by route kind (docs/pages.md §2). */
const CACHE_CONTROL = { ssr: 'private, no-store', static: 'private, no-cache' } as const;

/** Site name appended to every page title (docs/pages.md §3). */
export const TITLE_SUFFIX = ' · Eiland';

/** Options of {@link addPageRoutes}. */
export interface PageRoutesOptions {
  /** The route table: the site's pages, every form's, and a test's own. */
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

/** The request's values a cacheable page's loader took as placeholders (docs/streaming.md §6). */
export interface TakenHoles {
  csrfToken?: true;
  submissionKey?: true;
}

/** A cacheable page's props, settled where they could be, and the request's values its loader took. */
export interface LoadedPage {
  props: object;
  taken: TakenHoles;
}

/**
 * Runs a cacheable route's loader (docs/streaming.md §6): each value it takes from the request is
 * recorded and handed to it as its placeholder; then its deferred props get their one turn to
 * settle. The same for the router and the fast path (src/fast-path.ts).
 * @param route the route, its renders cached
 * @param req the request, or the fast path's view of it through Express's getters
 * @throws what the loader throws
 */
export async function loadCacheable(route: AnyPageRoute, req: Request): Promise<LoadedPage> {
  const taken: TakenHoles = {};
  const context: LoaderContext = {
    req,
    csrfToken() {
      taken.csrfToken = true;
      return PLACEHOLDERS.csrfToken;
    },
    // One per page: a page has one form.
    submissionKey() {
      taken.submissionKey = true;
      return PLACEHOLDERS.submissionKey;
    },
  };
  const props = route.loader ? await route.loader(context) : {};
  await settleDeferred(props);
  return { props, taken };
}

/**
 * A response's values of the holes a loader took (docs/streaming.md §6): the request's token (its
 * cookies set as it is issued), a fresh submission key. The same for the router and the fast path.
 * @param taken what the loader took
 * @param token issues the request's CSRF token
 */
export function holeValues(taken: TakenHoles, token: () => string): HoleValues {
  const values: HoleValues = {};
  if (taken.csrfToken) values.csrfToken = token();
  if (taken.submissionKey) values.submissionKey = randomUUID();
  return values;
}

/** A page the fast path loaded and then handed to the router, by request. */
const handedOver = new WeakMap<IncomingMessage, { route: AnyPageRoute; loading: Promise<LoadedPage> }>();

/**
 * Hands a page the fast path began loading to the router, which then renders it from that load
 * instead of running the loader again (src/fast-path.ts).
 * @param req the request, about to go through Express
 * @param route the route the fast path matched
 * @param loading what {@link loadCacheable} returned for it (a rejection reaches the error handler)
 */
export function handOver(req: IncomingMessage, route: AnyPageRoute, loading: Promise<LoadedPage>): void {
  handedOver.set(req, { route, loading });
}

/** The load handed over for this route, taken once; undefined when there is none. */
function takeHandedOver(req: Request, route: AnyPageRoute): Promise<LoadedPage> | undefined {
  const given = handedOver.get(req);
  if (given?.route !== route) return undefined;
  handedOver.delete(req);
  return given.loading;
}

/**
 * What the renderer needs to render a route's view with props and a status.
 * @param onShellError called instead of sending when the shell fails (the router's `next`)
 */
export function pageRequest(route: AnyPageRoute, status: number, props: object, onShellError: (e: unknown) => void): RenderRequest {
  return {
    status,
    title: formTitle(route.title, route.failing?.(props) ?? false) + TITLE_SUFFIX,
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
    if (!cached) {
      const props = route.loader ? await route.loader(context(req, res)) : {};
      await settleDeferred(props);
      render(req, res, pageRequest(route, 200, props, next));
      return;
    }
    const { props, taken } = await (takeHandedOver(req, route) ?? loadCacheable(route, req));
    const holes = (res.locals.holes = holeValues(taken, () => res.locals.csrfToken));
    const request = pageRequest(route, 200, props, next);
    request.cacheable = { fresh: () => pageRequest(route, 200, fillProps(props, holes), next) };
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
 * Adds the routes of all pages: GET and HEAD, each route's POST chain, 405 for another method.
 * @param router where the routes are added (see `addHealthRoutes`)
 * @example addPageRoutes(routes, { routes: siteRoutes(storage, limit, 365, FORMS), render, csrf, limits, metrics })
 */
export function addPageRoutes(router: Router, { routes, render, csrf, limits, metrics }: PageRoutesOptions): void {
  for (const route of routes) {
    const r = router.route(route.path).all(routeName(route.path)).get(pageHandler(route, render));
    if (route.post) {
      const renderPage = (req: Request, res: Response, status: number, props: object, next: NextFunction) => render(req, res, pageRequest(route, status, props, next));
      r.post(...route.post({ renderPage, csrf, limits, metrics }));
    }
    r.all(methodNotAllowed(route.post ? 'GET, HEAD, POST' : 'GET, HEAD'));
  }
}

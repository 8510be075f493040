/**
 * The per-request state, declared once and typed (as Hono's `ContextVariableMap`): Express's
 * `res.locals`, extended here through `Express.Locals`, so every reader is typed and none casts.
 * `requestContext()` sets what every later step may read: the target and whether page data is
 * asked for. The other keys are set by the step named on each, before anything reads them.
 */
import type { RequestHandler } from 'express';
import { DATA_HEADER, DATA_MARKER } from '../protocol/page-data.js';
import { parseTarget, type Target } from './filter/canonical.js';
import type { RenderCacheResult } from './render/cache.js';
import type { HoleValues } from './render/holes.js';
import type { PageHead } from './render/types.js';

declare global {
  // Express's own extension point for `res.locals` (@types/express-serve-static-core).
  namespace Express {
    interface Locals {
      /** The request target and its canonical path (docs/pages.md §5): set by {@link requestContext}. */
      target: Target;
      /**
       * Whether the request carries the page-data marker `X-Eiland-Data: 1` (docs/navigation.md
       * §1): a GET answered with page data, or a form post answered with JSON. Decided once, by
       * {@link requestContext}.
       */
      pageData: boolean;
      /** The matched route pattern, e.g. `/aanmeldingen/:id`: set by routing (`routeName`). */
      route?: string;
      /** This response's CSP nonce (docs/filter.md §4): set by the filter, for every filtered request. */
      nonce: string;
      /**
       * A CSRF token for a form on the page (docs/filter.md §6): set by the filter, issued on first
       * read (it sets its cookies then).
       */
      readonly csrfToken: string;
      /**
       * This response's values of the render cache's holes that a loader took (docs/streaming.md
       * §6): set by the loader's context when it hands out a placeholder instead.
       */
      holes?: HoleValues;
      /** How the page was served by the render cache, for the request's log line: set by the renderer. */
      render?: RenderCacheResult;
      /** Extra `<head>` elements of every page (development: the reload client): set by a step added to the pipeline. */
      pageHead?: PageHead;
      /** The error behind a 5xx answer, written with its stack on the request's log line (docs/operations.md §2). */
      failure?: Error;
      /** A 503 that sheds load (a full image queue): logged at `warn`, without a stack (docs/operations.md §2). */
      shed?: boolean;
    }
  }
}

/**
 * The first middleware: parses the target and decides whether page data is asked for.
 * @example app.use(requestContext())
 */
export function requestContext(): RequestHandler {
  return function requestContext(req, res, next) {
    res.locals.target = parseTarget(req.url);
    res.locals.pageData = req.get(DATA_HEADER) === DATA_MARKER;
    next();
  };
}

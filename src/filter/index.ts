/**
 * The request filter (docs/filter.md §1–§7): one middleware chain for
 * every request whose canonical path is not excluded (see `canonical.ts`).
 * Composition only; each step lives in its own file.
 */
import type { RequestHandler } from 'express';
import { requestIdHeader } from './request-id.js';
import { securityHeaders } from './security-headers.js';
import type { CsrfTokens } from './cross-site.js';
import { DATA_HEADER } from '../../protocol/page-data.js';

/** Options of {@link requestFilter}. */
interface FilterOptions {
  csrf: CsrfTokens;
}

/** Step 3: the interface language (docs/filter.md §5). */
function contentLanguage(): RequestHandler {
  return function contentLanguage(_req, res, next) {
    res.setHeader('Content-Language', 'nl');
    next();
  };
}

/**
 * Step 5: what a page render gets per request (docs/filter.md §7). The CSRF token is made on
 * first read, so only responses that render a form set the token cookies.
 */
function viewLocals({ csrf }: FilterOptions): RequestHandler {
  return function viewLocals(req, res, next) {
    // HTML and page data share URLs: caches must keep them apart (docs/pages.md §2).
    res.vary(DATA_HEADER);
    let token: string | undefined;
    Object.defineProperty(res.locals, 'csrfToken', {
      enumerable: true,
      get: () => (token ??= csrf.issue(req, res)),
    });
    next();
  };
}

/**
 * The filter chain, steps 1–3 and 5 (docs/filter.md §3–§5, §7), as one middleware that runs each step in
 * turn (one Express layer instead of four). Step 4 (cross-site protection) runs per
 * unsafe route, after routing, as the order of docs/errors.md §3 demands.
 * @example app.use(requestFilter({ csrf }))
 */
export function requestFilter(options: FilterOptions): RequestHandler {
  const steps: RequestHandler[] = [requestIdHeader(), securityHeaders(), contentLanguage(), viewLocals(options)];
  return function requestFilter(req, res, next) {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err !== undefined || i === steps.length) next(err);
      else void steps[i++]!(req, res, step);
    };
    step();
  };
}

/**
 * The request filter (docs/filter.md §1–§7): one middleware chain for
 * every request whose canonical path is not excluded (see `canonical.ts`).
 * Composition only; each step lives in its own file.
 */
import type { RequestHandler } from 'express';
import type { CsrfTokens } from './types.js';
import { filterHead } from './head.js';
import { nonce } from './security-headers.js';

/** Options of {@link requestFilter}. */
interface FilterOptions {
  csrf: CsrfTokens;
}

/**
 * The filter chain, steps 1–3 and 5 (docs/filter.md §3–§5, §7), as one middleware: the filter's
 * headers (src/filter/head.ts) with this response's request id and nonce (`res.locals.nonce`), and
 * the CSRF token a page render may ask for, made on first read, so only responses that render a
 * form set the token cookies. Step 4 (cross-site protection) runs per unsafe route, after
 * routing, as the order of docs/errors.md §3 demands.
 * @example app.use(requestFilter({ csrf }))
 */
export function requestFilter({ csrf }: FilterOptions): RequestHandler {
  const overHttps = filterHead(true);
  const overHttp = filterHead(false);
  return function requestFilter(req, res, next) {
    const fresh = nonce();
    res.locals.nonce = fresh;
    const lines = (req.secure ? overHttps : overHttp).fill(req.id, fresh);
    for (let i = 0; i < lines.length; i += 2) res.setHeader(lines[i]!, lines[i + 1]!);
    let token: string | undefined;
    Object.defineProperty(res.locals, 'csrfToken', {
      enumerable: true,
      get: () => (token ??= csrf.issue(req, res)),
    });
    next();
  };
}

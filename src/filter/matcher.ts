/**
 * The filter's matcher and the canonical-path rule (product.md §1–§3).
 * `matcher` decides, on the canonical path, whether a request is excluded;
 * `canonicalPaths` answers malformed (400) and non-canonical (308) targets.
 */
import type { RequestHandler } from 'express';
import { HttpError } from '../errors.js';
import { isExcluded, parseTarget, type Target } from './canonical.js';

/** Options of {@link matcher}. */
export interface MatcherOptions {
  /** Serves excluded paths; must answer every request it gets (404 at the end). */
  excluded: RequestHandler;
}

function redirect(res: Parameters<RequestHandler>[1], target: Extract<Target, { kind: 'path' }>): void {
  // The canonical path starts with one '/' and has no '\': never an off-site Location.
  res.redirect(308, target.canonical + target.search);
}

/**
 * Routes excluded paths to their handler and everything else on into the
 * filter. No header takes part in the decision (product.md §2).
 * @example app.use(matcher({ excluded: assetsHandler(options) }))
 */
export function matcher({ excluded }: MatcherOptions): RequestHandler {
  return function matcher(req, res, next) {
    const target = parseTarget(req.url);
    res.locals.target = target;
    if (target.kind === 'malformed' || !isExcluded(target.canonical)) {
      next();
      return;
    }
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (target.path !== target.canonical) redirect(res, target);
    else excluded(req, res, next);
  };
}

/**
 * For filtered requests: malformed percent-encoding → 400, a non-canonical
 * path → 308 to its canonical form on this origin (product.md §3 order).
 */
export function canonicalPaths(): RequestHandler {
  return function canonicalPaths(_req, res, next) {
    const target = res.locals.target as Target;
    if (target.kind === 'malformed') next(new HttpError(400, 'Malformed request target'));
    else if (target.path !== target.canonical) redirect(res, target);
    else next();
  };
}

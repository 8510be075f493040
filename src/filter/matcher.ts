/**
 * The filter's matcher and the canonical-path rule (docs/filter.md §1–§2, docs/pages.md §5).
 * `matcher` decides, on the canonical path, whether a request is excluded;
 * `canonicalPaths` answers malformed (400) and non-canonical (308) targets.
 */
import type { RequestHandler, Response } from 'express';
import { HttpError } from '../errors.js';
import type { Target } from './canonical.js';
import { excludedPath, type ExcludedPath } from './excluded.js';

/** Options of {@link matcher}. */
interface MatcherOptions {
  /** The handler of each excluded path (src/filter/excluded.ts); what one passes on ends as a plain 404 (the error handler). */
  excluded: Record<ExcludedPath, RequestHandler>;
}

function redirect(res: Response, target: Extract<Target, { kind: 'path' }>): void {
  // The canonical path starts with one '/' and has no '\': never an off-site Location.
  res.redirect(308, target.canonical + target.search);
}

/**
 * Routes excluded paths to their handlers and everything else on into the
 * filter. No header takes part in the decision (docs/filter.md §2).
 * @example app.use(matcher({ excluded: { assets, image, favicon } }))
 */
export function matcher({ excluded }: MatcherOptions): RequestHandler {
  return function matcher(req, res, next) {
    const { target } = res.locals;
    const name = target.kind === 'path' ? excludedPath(target.canonical) : undefined;
    if (name === undefined) {
      next();
      return;
    }
    if (target.kind === 'path' && target.path !== target.canonical) redirect(res, target);
    // What the handler does not serve, or fails with, ends in the error handler as plain text.
    else excluded[name](req, res, (error?: unknown) => next(error ?? new HttpError(404, 'Nothing at this excluded path')));
  };
}

/**
 * For filtered requests: malformed percent-encoding → 400, a non-canonical
 * path → 308 to its canonical form on this origin (docs/errors.md §3: the order of checks).
 */
export function canonicalPaths(): RequestHandler {
  return function canonicalPaths(_req, res, next) {
    const { target } = res.locals;
    if (target.kind === 'malformed') next(new HttpError(400, 'Malformed request target'));
    else if (target.path !== target.canonical) redirect(res, target);
    else next();
  };
}

/**
 * The filter's matcher and the canonical-path rule (product.md §1–§3).
 * `matcher` decides, on the canonical path, whether a request is excluded;
 * `canonicalPaths` answers malformed (400) and non-canonical (308) targets.
 */
import { STATUS_CODES } from 'node:http';
import type { RequestHandler, Response } from 'express';
import { HttpError } from '../errors.js';
import { endPlain } from '../plain-text.js';
import { parseTarget, type Target } from './canonical.js';
import { excludedPath, type ExcludedPath } from './excluded.js';

/** Options of {@link matcher}. */
export interface MatcherOptions {
  /** The handler of each excluded path (src/filter/excluded.ts); what one passes on ends as a plain 404. */
  excluded: Record<ExcludedPath, RequestHandler>;
}

function redirect(res: Response, target: Extract<Target, { kind: 'path' }>): void {
  // The canonical path starts with one '/' and has no '\': never an off-site Location.
  res.redirect(308, target.canonical + target.search);
}

/**
 * The end of an excluded path that nothing served (404), or whose handler failed (its error's
 * 4xx status, else 500 with the error on the log line): plain text, never a page (product.md §2).
 */
function plainEnd(res: Response, error?: unknown): void {
  const status = (error as { status?: unknown } | undefined)?.status;
  const code = error === undefined ? 404 : typeof status === 'number' && status >= 400 && status < 500 ? status : 500;
  if (code === 500) res.err = error instanceof Error ? error : new Error(String(error));
  if (res.headersSent) res.destroy();
  else endPlain(res, code, STATUS_CODES[code]!);
}

/**
 * Routes excluded paths to their handlers and everything else on into the
 * filter. No header takes part in the decision (product.md §2).
 * @example app.use(matcher({ excluded: { assets, image, favicon } }))
 */
export function matcher({ excluded }: MatcherOptions): RequestHandler {
  return function matcher(req, res, next) {
    const target = parseTarget(req.url);
    res.locals.target = target;
    const name = target.kind === 'path' ? excludedPath(target.canonical) : undefined;
    if (name === undefined) {
      next();
      return;
    }
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (target.kind === 'path' && target.path !== target.canonical) redirect(res, target);
    else excluded[name](req, res, (error?: unknown) => plainEnd(res, error));
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

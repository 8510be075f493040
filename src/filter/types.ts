/**
 * What the request filter offers the rest of the server, types only: the CSRF tokens a page and a
 * post use (cross-site.ts) and the per-client rate limits (rate-limit.ts). A module outside the
 * filter names these, not the filter's implementation; src/app.ts alone makes them.
 */
import type { Request, RequestHandler, Response } from 'express';

/** The token side of the protection: issuing tokens for views and checking them on posts. */
export interface CsrfTokens {
  /** Makes (and sets the cookies for) a token for this response. */
  issue(req: Request, res: Response): string;
  /**
   * Makes a token for a response the fast path sends (src/fast-path.ts): the same token and cookies
   * as {@link CsrfTokens.issue} on the Express path, the cookies as header lines.
   * @param req the request through Express's getters
   * @returns the token, and its `Set-Cookie` lines (name, value, …) in the order Express sets them
   */
  issueLines(req: Request): { token: string; lines: string[] };
  /** Middleware: cross-site → 403 error page; bad token → `CsrfTokenError`. */
  protect(options?: { tokenRequired?: boolean }): RequestHandler;
}

/** A limit: this many requests per window of `windowMs` milliseconds. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

/** Makes per-client limits whose counters live in one storage. */
export interface RateLimits {
  /**
   * A middleware that answers the request after the limit with the 429 error page
   * (`RateLimit` and `Retry-After` headers set by express-rate-limit). When the database cannot
   * count, the request gets the 503 page. A request its client cut short (gone before it had
   * arrived whole, a post's body half sent) gives back the count it took.
   * @param limit requests per window, per client address (`req.ip`, so `trust proxy` applies)
   * @param what what is limited, for the log and as the counters' key prefix, e.g. `form posts`
   */
  perClient(limit: RateLimit, what: string): RequestHandler;
}

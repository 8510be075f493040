/**
 * Rate limits per client address (product.md §4, §9), with express-rate-limit.
 * Counters live in each instance's memory: behind N instances a client may get
 * N times the limit (documented in the README).
 */
import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import { HttpError } from '../errors.js';

/** A limit: this many requests per window of `windowMs` milliseconds. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

/**
 * A middleware that answers the request after the limit with the 429 error page
 * (`RateLimit` and `Retry-After` headers set by express-rate-limit).
 * @param limit requests per window, per client address (`req.ip`, so `trust proxy` applies)
 * @param what what is limited, for the log, e.g. `form posts`
 */
export function perClientLimit({ limit, windowMs }: RateLimit, what: string): RequestHandler {
  return rateLimit({
    limit,
    windowMs,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, _res, next) => next(new HttpError(429, `Too many ${what} from this client address`)),
  });
}

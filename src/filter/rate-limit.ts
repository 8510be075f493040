/**
 * Rate limits per client address (product.md §4, §9, §12), with express-rate-limit. The
 * counters live in the database (a store on the storage contract), so N instances on one
 * database enforce one limit (issue 12).
 */
import type { RequestHandler } from 'express';
import { rateLimit, type Options, type Store } from 'express-rate-limit';
import { HttpError } from '../errors.js';
import type { Storage } from '../storage/types.js';

/** A limit: this many requests per window of `windowMs` milliseconds. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

/** An express-rate-limit store whose counters are rows of the storage's `rate_limits` table. */
class StorageStore implements Store {
  windowMs = 60_000;
  readonly localKeys = false;
  constructor(
    private readonly storage: Storage,
    readonly prefix: string,
  ) {}
  init(options: Options): void {
    this.windowMs = options.windowMs;
  }
  async increment(key: string) {
    const { hits, resetAt } = await this.storage.hitRateLimit(this.prefix + key, this.windowMs);
    return { totalHits: hits, resetTime: resetAt };
  }
  async decrement(key: string) {
    await this.storage.unhitRateLimit(this.prefix + key);
  }
  async resetKey(key: string) {
    await this.storage.resetRateLimit(this.prefix + key);
  }
}

/**
 * A middleware that answers the request after the limit with the 429 error page
 * (`RateLimit` and `Retry-After` headers set by express-rate-limit). When the database cannot
 * count, the request gets the 503 page.
 * @param limit requests per window, per client address (`req.ip`, so `trust proxy` applies)
 * @param what what is limited, for the log and as the counters' key prefix, e.g. `form posts`
 * @param storage where the counters live (shared by every instance on the database)
 */
export function perClientLimit({ limit, windowMs }: RateLimit, what: string, storage: Storage): RequestHandler {
  return rateLimit({
    limit,
    windowMs,
    store: new StorageStore(storage, `${what}:`),
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, _res, next) => next(new HttpError(429, `Too many ${what} from this client address`)),
  });
}

/**
 * Rate limits per client address (docs/forms.md §7, docs/errors.md §6), with express-rate-limit. The
 * counters live in the database (a store on the storage contract), so N instances on one
 * database enforce one limit.
 */
import type { Request } from 'express';
import type { Logger } from 'pino';
import { rateLimit, type Options, type RateLimitInfo, type Store } from 'express-rate-limit';
import { HttpError } from '../errors.js';
import { ClientGoneError, clientGone, cutShort } from '../request-end.js';
import type { Storage } from '../storage/types.js';
import type { RateLimits } from './types.js';

/** A request as express-rate-limit leaves it: the info of the limiter that counted it last. */
type RateLimited = Request & { rateLimit?: RateLimitInfo };

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
 * express-rate-limit's warnings (its checks of the configuration and of `req.ip`) as one pino
 * line each: its default writes a stack to stderr, in the middle of the JSON log (docs/operations.md §2).
 */
function pinoAdapter(logger: Logger): NonNullable<Options['logger']> {
  const line = (error: unknown, context?: string) =>
    logger.warn(
      { event: 'rate_limit_warning', code: (error as { code?: unknown } | null)?.code, reason: error instanceof Error ? error.message : String(error), context },
      'rate_limit_warning',
    );
  return { warn: line, error: line };
}

/**
 * The rate limits of one app.
 * @param storage where the counters live (shared by every instance on the database)
 * @param logger where express-rate-limit's warnings go
 * @example rateLimits({ storage, logger }).perClient({ limit: 20, windowMs: 600_000 }, 'form posts')
 */
export function rateLimits({ storage, logger }: { storage: Storage; logger: Logger }): RateLimits {
  const log = pinoAdapter(logger);
  return {
    perClient({ limit, windowMs }, what) {
      const store = new StorageStore(storage, `${what}:`);
      const limiter = rateLimit({
        limit,
        windowMs,
        store,
        standardHeaders: 'draft-8',
        legacyHeaders: false,
        logger: log,
        // A client that reset its connection has no address left to count (`req.ip` is undefined).
        skip: (req) => clientGone(req),
        handler: (_req, _res, next) => next(new HttpError(429, `Too many ${what} from this client address`)),
      });
      return function perClient(req, res, next) {
        // What this limiter counted, once it has: the info it sets on the request (another
        // limiter's, earlier in the chain, is not this one's to give back).
        const before = (req as RateLimited).rateLimit;
        let counted: RateLimitInfo | undefined;
        let closed = false;
        // A post that never arrived whole is no post (docs/forms.md §7). Given back only within
        // the window it was counted in: a later window's count is other posts'.
        const giveBack = () => {
          const info = counted;
          counted = undefined;
          if (info === undefined || !cutShort(req, res) || (info.resetTime !== undefined && Date.now() >= info.resetTime.getTime())) return;
          // A count the database cannot give back ends with its window (its failure is counted:
          // eiland_storage_errors_total).
          store.decrement(info.key).catch(() => undefined);
        };
        res.once('close', () => {
          closed = true;
          giveBack();
        });
        void limiter(req, res, (error?: unknown) => {
          const info = (req as RateLimited).rateLimit;
          if (info !== before) counted = info;
          if (closed) giveBack();
          // What follows would read a body that will never come: the chain ends for a client gone.
          next(error ?? (clientGone(req) ? new ClientGoneError() : undefined));
        });
      };
    },
  };
}

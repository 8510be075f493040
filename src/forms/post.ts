/**
 * A route's POST chain (docs/forms.md §3, §7): the rate limit (one counter per form), the body
 * reader, the cross-site protection, the action, and its answer: a 303 (post/redirect/get), the
 * JSON of a post with the data marker, or the page again with a status; an expired token goes to
 * the route's own answer for it. The page router only mounts what this returns.
 */
import { randomUUID } from 'node:crypto';
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { DATA_HEADER, DATA_MARKER } from '../../protocol/page-data.js';
import { CsrfTokenError } from '../filter/cross-site.js';
import type { RateLimit } from '../filter/types.js';
import { countFormPosts, markFormOutcome } from '../metrics/forms.js';
import type { FormOutcome } from '../metrics/index.js';
import type { LoaderContext, PostKit } from '../route-table.js';
import { formBody } from './body.js';

/** What an action gets: the loader's context plus the request's logger. */
export interface ActionContext extends LoaderContext {
  log: Logger;
}

/**
 * An action's answer: a redirect (303 for PRG), or the page again with a status. `data` is the
 * JSON answer to a post with the data marker (the island's), e.g. field → message for a 422. An
 * answer whose status would misname it names its `outcome` for the metrics (a redirect that stored
 * nothing: `honeypot`; a page asking again: `asked`).
 */
export type ActionResult<P> = { redirect: string; outcome?: FormOutcome } | { status: number; props: P; data?: unknown; outcome?: FormOutcome };

/** Options of {@link postChain}. */
interface PostOptions<P> {
  /** The route's path: its posts are counted under it. */
  path: string;
  /** Runs once the post has passed every check. */
  action(ctx: ActionContext): Promise<ActionResult<P>>;
  /** Answers a same-origin post whose CSRF token has expired (else the 403 error page). */
  onTokenExpired?: (ctx: ActionContext) => Promise<ActionResult<P>>;
  /** Posts allowed per client address and window, and whose counter they use up (a form's name). */
  rateLimit?: { limit: RateLimit; counter: string };
}

/** An action's context: the token of this request, fresh submission keys, the request's logger. */
function actionContext(req: Request, res: Response): ActionContext {
  return {
    req,
    csrfToken: () => res.locals.csrfToken,
    submissionKey: randomUUID,
    // Read when a line is written: the child logger is made only then.
    get log() {
      return req.log;
    },
  };
}

/** Runs an action and sends its answer. */
function answer<P>(kit: PostKit, run: (ctx: ActionContext) => Promise<ActionResult<P>>) {
  return async function action(req: Request, res: Response, next: NextFunction): Promise<void> {
    const result = await run(actionContext(req, res));
    if (result.outcome) markFormOutcome(res, result.outcome);
    if ('redirect' in result) {
      res.redirect(303, result.redirect);
    } else if (result.data !== undefined && res.locals.pageData) {
      // The island's post: JSON, marked, never cached (docs/forms.md §5).
      res.status(result.status).set(DATA_HEADER, DATA_MARKER).set('Cache-Control', 'no-store').json(result.data);
    } else kit.renderPage(req, res, result.status, result.props as object, next);
  };
}

/**
 * Builds a route's POST chain.
 * @param options the path, the action, and optionally the expired-token answer and the rate limit
 * @returns what the page router mounts for POST, given the app's shared parts
 * @example post: postChain({ path: '/proef/formulier', action: async () => ({ redirect: '/' }) })
 */
export function postChain<P>({ path, action, onTokenExpired, rateLimit }: PostOptions<P>): (kit: PostKit) => Array<RequestHandler | ErrorRequestHandler> {
  return (kit) => {
    // One counter per form (docs/forms.md §7): posts of one form never use up another's.
    const limiter = rateLimit ? [kit.limits.perClient(rateLimit.limit, `posts of the ${rateLimit.counter} form`)] : [];
    const expired = onTokenExpired ? answer(kit, onTokenExpired) : undefined;
    const tokenExpired: ErrorRequestHandler = function tokenExpired(err, req, res, next) {
      if (err instanceof CsrfTokenError && expired) return expired(req, res, next);
      next(err);
    };
    return [countFormPosts(kit.metrics, path), ...limiter, ...formBody(), kit.csrf.protect(), answer(kit, action), tokenExpired];
  };
}

/**
 * `http_request_duration_seconds` (docs/operations.md §7): every request, by route pattern, method
 * and status class. Labels stay bounded: a request no route matched is `unmatched`, an excluded
 * path its entry's pattern, an unusual method `OTHER`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { excludedPath, type ExcludedPath } from '../filter/excluded.js';
import { sentStatus } from '../request-end.js';
import type { Metrics } from './index.js';

/** The label of each excluded path (src/filter/excluded.ts). */
const EXCLUDED_ROUTES: Record<ExcludedPath, string> = { assets: '/assets/*', image: '/_image', favicon: '/favicon.ico' };

/** Methods labelled by name; any other is `OTHER`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** What a request's observation reads from its response's state when the response closes. */
type ObservedLocals = Partial<Pick<Express.Locals, 'target' | 'route'>>;

function routeLabel({ route, target }: ObservedLocals): string {
  if (route !== undefined) return route;
  const excluded = target?.kind === 'path' ? excludedPath(target.canonical) : undefined;
  return excluded ? EXCLUDED_ROUTES[excluded] : 'unmatched';
}

/**
 * Observes a request's duration when its response closes (finished, or cut off: then the status
 * class is that of what was sent, the server's own 408 included, or `none` when nothing was).
 * Made by {@link requestObserver}; run once per request, by the fast path (src/fast-path.ts) or
 * by the {@link requestMetrics} middleware.
 * @param req the request
 * @param res its response; `res.locals` is read when it closes
 * @param started when the request arrived (`performance.now()`, ms)
 */
export type RequestObserver = (req: IncomingMessage, res: ServerResponse & { locals: ObservedLocals }, started: number) => void;

const OBSERVED = Symbol('eiland.observed');

/**
 * The observer of the app's request durations.
 * @param metrics the app's instruments
 */
export function requestObserver(metrics: Metrics): RequestObserver {
  return function observeRequest(req, res, started) {
    (req as IncomingMessage & { [OBSERVED]?: true })[OBSERVED] = true;
    res.once('close', () => {
      const status = sentStatus(res);
      const statusClass = status === undefined ? 'none' : `${Math.floor(status / 100)}xx`;
      const method = METHODS.has(req.method!) ? req.method! : 'OTHER';
      metrics.requestDuration.observe({ route: routeLabel(res.locals), method, status_class: statusClass }, (performance.now() - started) / 1000);
    });
  };
}

/**
 * A middleware that observes each request with the app's observer, unless the fast path already does.
 * @example app.use(requestMetrics(requestObserver(metrics)))
 */
export function requestMetrics(observe: RequestObserver): RequestHandler {
  return function requestMetrics(req, res, next) {
    if ((req as IncomingMessage & { [OBSERVED]?: true })[OBSERVED] === undefined) observe(req, res, performance.now());
    next();
  };
}

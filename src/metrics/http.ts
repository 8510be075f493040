/**
 * `http_request_duration_seconds` (docs/operations.md §7): every request, by route pattern, method
 * and status class. Labels stay bounded: a request no route matched is `unmatched`, an excluded
 * path its entry's pattern, an unusual method `OTHER`.
 */
import type { RequestHandler, Response } from 'express';
import { excludedPath, type ExcludedPath } from '../filter/excluded.js';
import { sentStatus } from '../request-end.js';
import type { Metrics } from './index.js';

/** The label of each excluded path (src/filter/excluded.ts). */
const EXCLUDED_ROUTES: Record<ExcludedPath, string> = { assets: '/assets/*', image: '/_image', favicon: '/favicon.ico' };

/** Methods labelled by name; any other is `OTHER`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

function routeLabel(res: Response): string {
  const { route, target } = res.locals;
  if (route !== undefined) return route;
  const excluded = target.kind === 'path' ? excludedPath(target.canonical) : undefined;
  return excluded ? EXCLUDED_ROUTES[excluded] : 'unmatched';
}

/**
 * A middleware that observes each request's duration when its response closes (finished, or
 * cut off: then the status class is that of what was sent, the server's own 408 included, or
 * `none` when nothing was).
 * @example app.use(requestMetrics(metrics))
 */
export function requestMetrics(metrics: Metrics): RequestHandler {
  return function requestMetrics(req, res, next) {
    const started = performance.now();
    res.once('close', () => {
      const status = sentStatus(res);
      const statusClass = status === undefined ? 'none' : `${Math.floor(status / 100)}xx`;
      const method = METHODS.has(req.method) ? req.method : 'OTHER';
      metrics.requestDuration.observe({ route: routeLabel(res), method, status_class: statusClass }, (performance.now() - started) / 1000);
    });
    next();
  };
}

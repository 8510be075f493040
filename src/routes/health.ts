/**
 * Health probes (docs/pages.md §1, docs/operations.md §4): liveness and readiness, as JSON.
 */
import type { Router } from 'express';
import type { Lifecycle } from '../lifecycle.js';
import { methodNotAllowed, routeName } from './router.js';

/** Options of {@link addHealthRoutes}. */
export interface HealthRoutesOptions {
  /** The instance's state, which `/readyz` reports. */
  lifecycle: Lifecycle;
}

/**
 * Adds `/healthz`, 200 while the process runs, and `/readyz`, 200 only while the instance is
 * ready, 503 while starting or shutting down.
 * @param router where the routes are added: each `add…` of src/routes/ adds to a router it is
 *   given, so the app decides how many routers a request walks (the probes', then one for every
 *   other route, instead of one per module)
 * @example addHealthRoutes(probes, { lifecycle })
 */
export function addHealthRoutes(router: Router, { lifecycle }: HealthRoutesOptions): void {
  router
    .route('/healthz')
    .all(routeName('/healthz'))
    .get(function healthz(_req, res) {
      res.set('Cache-Control', 'no-store').json({ status: 'ok' });
    })
    .all(methodNotAllowed('GET, HEAD'));
  router
    .route('/readyz')
    .all(routeName('/readyz'))
    .get(function readyz(_req, res) {
      const ready = lifecycle.ready;
      res.set('Cache-Control', 'no-store').status(ready ? 200 : 503).json({ status: ready ? 'ready' : lifecycle.state });
    })
    .all(methodNotAllowed('GET, HEAD'));
}

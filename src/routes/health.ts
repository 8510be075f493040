/**
 * Health probes (docs/pages.md §1, docs/operations.md §4): liveness and readiness, as JSON.
 */
import type { Router } from 'express';
import type { Lifecycle } from '../lifecycle.js';
import { methodNotAllowed, routeName } from './router.js';

/**
 * `/healthz` is 200 while the process runs; `/readyz` is 200 only while the
 * instance is ready, 503 while starting or shutting down.
 * @param router where the routes are added: the app's one router of routes (one
 *   router per request instead of one per module)
 * @returns `router`
 */
export function healthRouter(lifecycle: Lifecycle, router: Router): Router {
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
  return router;
}

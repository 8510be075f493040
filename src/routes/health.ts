/**
 * Health probes (product.md §1, §12): liveness and readiness, as JSON.
 */
import { Router } from 'express';
import type { Lifecycle } from '../lifecycle.js';
import { methodNotAllowed, routeName } from './router.js';

/**
 * `/healthz` is 200 while the process runs; `/readyz` is 200 only while the
 * instance is ready, 503 while starting or shutting down.
 */
export function healthRouter(lifecycle: Lifecycle): Router {
  const router = Router({ caseSensitive: true, strict: true });
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

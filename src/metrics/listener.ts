/**
 * The metrics listener (docs/operations.md §7): `GET /metrics` as Prometheus text on its own port
 * (`METRICS_PORT`), on loopback unless `METRICS_HOST` says otherwise, never on the public port.
 * With it come Node's and the process's own metrics (prom-client's defaults: CPU, memory, heap,
 * event-loop lag, garbage collection).
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics } from 'prom-client';
import type { Job } from '../jobs.js';
import type { Metrics } from './index.js';

/** The path Prometheus scrapes. */
export const METRICS_PATH = '/metrics';

/** A running metrics listener: a job whose stop closes it. */
interface MetricsListener extends Job {
  server: Server;
  /** The port it listens on (the configured one, or the one picked for 0). */
  port: number;
}

/**
 * Starts collecting the default metrics and listens.
 * @param metrics the app's instruments
 * @param host interface, e.g. `127.0.0.1`
 * @param port TCP port; 0 picks a free one
 * @throws Error when the port cannot be bound
 */
export async function startMetricsListener(metrics: Metrics, host: string, port: number): Promise<MetricsListener> {
  collectDefaultMetrics({ register: metrics.registry });
  const server = createServer(function metricsEndpoint(req, res) {
    const path = (req.url ?? '').split('?', 1)[0];
    if (path !== METRICS_PATH) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not Found');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method Not Allowed');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': metrics.registry.contentType, 'Cache-Control': 'no-store' }).end(req.method === 'HEAD' ? undefined : text),
      () => res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Internal Server Error'),
    );
  });
  server.listen(port, host);
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => Promise.reject(error as Error))]);
  return {
    name: 'metrics_listener',
    server,
    port: (server.address() as AddressInfo).port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // a scraper's keep-alive connection must not hold the exit
      }),
  };
}

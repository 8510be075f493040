/**
 * The reload channel of development (docs/development.md §2): `GET /_eiland/reload`, server-sent
 * events announcing the build id open pages should show, every finished rebuild and every
 * failed one. Served by the development app around the production one; production has no such
 * route (404).
 */
import type { Router } from 'express';
import { RELOAD_PATH, type ReloadEvent } from '../../protocol/reload.js';
import type { Lifecycle } from '../lifecycle.js';
import { methodNotAllowed, routeName } from '../routes/router.js';
import type { BuildFeed } from './feed.js';

/** Options of {@link reloadChannel}. */
export interface ReloadChannelOptions {
  /** The watcher's feed of builds. */
  feed: BuildFeed;
  /** Open streams end when shutdown begins, so a restart is not held up by them. */
  lifecycle: Lifecycle;
  /** A comment line is sent this often (ms) to keep the stream and proxies awake (default 10 000). */
  heartbeatMs?: number;
}

/** One server-sent event: its type as `event`, the rest as one `data` line of JSON. */
function sse({ type, ...data }: ReloadEvent): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The reload channel. On connect it sends `hello` with the current id (and `build-failed` while
 * the last build failed); then `reload` after every good rebuild, `build-failed` after a bad one,
 * and a heartbeat comment.
 * @param router where the route is added
 * @returns `router`
 * @example reloadChannel({ feed: assets.feed, lifecycle }, routes)
 */
export function reloadChannel({ feed, lifecycle, heartbeatMs = 10_000 }: ReloadChannelOptions, router: Router): Router {
  router
    .route(RELOAD_PATH)
    .all(routeName(RELOAD_PATH))
    .get(function reload(req, res) {
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache, no-transform',
        'X-Accel-Buffering': 'no', // no proxy buffering: events arrive as they happen
      });
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      res.write(sse({ type: 'hello', id: feed.id }));
      if (feed.failure !== undefined) res.write(sse({ type: 'build-failed', message: feed.failure }));
      const unsubscribe = feed.subscribe((event) => res.write(sse(event)));
      const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), heartbeatMs);
      // At shutdown the stream ends with its connection, so the server can close at once.
      const end = () => req.socket.destroy();
      lifecycle.once('stopping', end);
      req.on('close', () => {
        unsubscribe();
        clearInterval(heartbeat);
        lifecycle.off('stopping', end);
      });
    })
    .all(methodNotAllowed('GET, HEAD'));
  return router;
}

/**
 * The reload channel of development (docs/development.md §2): `GET /_eiland/reload`, server-sent
 * events announcing the build id open pages should show, every good build and every failed one.
 * Served by the development runner's front (src/dev/front.ts), so a stream stays open while the
 * server behind it restarts; production has no such route (404).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ReloadEvent } from '../../protocol/reload.js';
import type { BuildFeed } from './feed.js';

/** Options of {@link reloadChannel}. */
interface ReloadChannelOptions {
  /** A comment line is sent this often (ms) to keep the stream and proxies awake (default 10 000). */
  heartbeatMs?: number;
}

/** The channel: a request handler, and a way to end every open stream. */
interface ReloadChannel {
  /** Answers a request for the channel's path: GET streams, HEAD answers the head, others 405. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Ends every open stream (the runner stops: open pages then try again, docs/development.md §3). */
  close(): void;
}

/** One server-sent event: its type as `event`, the rest as one `data` line of JSON. */
function sse({ type, ...data }: ReloadEvent): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The reload channel on `feed`. On connect a stream gets `hello` with the current id (and
 * `build-failed` while the last build failed); then `reload` after every good build,
 * `build-failed` after a bad one, and a heartbeat comment.
 * @example const channel = reloadChannel(feed); channel.handle(req, res)
 */
export function reloadChannel(feed: BuildFeed, { heartbeatMs = 10_000 }: ReloadChannelOptions = {}): ReloadChannel {
  const open = new Set<ServerResponse>();
  return {
    handle(req, res) {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('405 Method Not Allowed\n');
        return;
      }
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
      open.add(res);
      res.on('close', () => {
        open.delete(res);
        unsubscribe();
        clearInterval(heartbeat);
      });
    },
    close() {
      for (const res of open) res.destroy();
    },
  };
}

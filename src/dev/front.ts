/**
 * The development runner's front (docs/development.md §1–§2): the one port `npm run dev` listens
 * on. It serves the reload channel itself and forwards every other request to the server process
 * it currently points at, so the channel stays open across restarts and a planned restart needs
 * no reconnect.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RELOAD_PATH } from '../../protocol/reload.js';
import type { BuildFeed } from './feed.js';
import { forward } from './proxy.js';
import { reloadChannel } from './reload-channel.js';

/** A listening front. */
export interface Front {
  /** Where it listens, e.g. `http://127.0.0.1:3000` (an IPv6 host in brackets). */
  readonly url: string;
  /** The loopback port of the server that takes requests now; undefined while none runs. */
  target: number | undefined;
  /** Ends the reload streams and every connection, and stops listening. */
  close(): Promise<void>;
}

/**
 * Starts the front on `host:port` (port 0: one the system picks).
 * @param feed what the reload channel announces
 * @throws the listen error (e.g. `EADDRINUSE`) when the port cannot be bound
 */
export async function startFront({ host, port, feed, heartbeatMs }: { host: string; port: number; feed: BuildFeed; heartbeatMs?: number }): Promise<Front> {
  const channel = reloadChannel(feed, { heartbeatMs });
  let target: number | undefined;
  const server: Server = createServer((req, res) => {
    const path = req.url?.split('?', 1)[0];
    if (path === RELOAD_PATH) channel.handle(req, res);
    else if (target !== undefined) forward(req, res, target);
    else res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '1' }).end('503: the development server is not running; it starts after the next good build\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  return {
    url: `http://${bound.address.includes(':') ? `[${bound.address}]` : bound.address}:${bound.port}`,
    get target() {
      return target;
    },
    set target(next) {
      target = next;
    },
    async close() {
      channel.close();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/**
 * The development runner's front (docs/development.md §1–§2): the one port `npm run dev` listens
 * on. It refuses a request for a host it does not answer (docs/development.md §6), serves the
 * reload channel itself and forwards every other request to the server process it currently
 * points at, so the channel stays open across restarts and a planned restart needs no reconnect.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RELOAD_PATH } from '../../protocol/reload.js';
import { hostRefusal, refuseHost } from './allowed-hosts.js';
import type { BuildFeed } from './feed.js';
import { forward } from './proxy.js';
import { reloadChannel } from './reload-channel.js';

/** A listening front. */
export interface Front {
  /** Where it listens, e.g. `http://127.0.0.1:3000` (an IPv6 host in brackets; `localhost` for every interface). */
  readonly url: string;
  /** The loopback port of the server that takes requests now; undefined while none runs. */
  target: number | undefined;
  /** Ends the reload streams and every connection, and stops listening. */
  close(): Promise<void>;
}

/** Options of {@link startFront}. */
export interface FrontOptions {
  /** The interface to listen on, e.g. `127.0.0.1`. */
  host: string;
  /** The port (0: one the system picks). */
  port: number;
  /** What the reload channel announces. */
  feed: BuildFeed;
  /** The reload channel's heartbeat, in ms (default 10 000). */
  heartbeatMs?: number;
  /** The names it answers besides localhost and the loopback addresses (`parseAllowedHosts`). */
  allowedHosts?: readonly string[];
  /** Told of each request refused for its host (a 403), e.g. to say so in the terminal. */
  onRefused?: (host: string | undefined) => void;
}

/**
 * Starts the front on `host:port`. Every request, on every path, first has its `Host` checked
 * (docs/development.md §6): two lines or an invalid one are a 400, a name it does not answer a 403.
 * @param options where to listen, the feed, the names it answers
 * @throws the listen error (e.g. `EADDRINUSE`) when the port cannot be bound
 * @example const front = await startFront({ host: '127.0.0.1', port: 3000, feed, allowedHosts: ['eiland.test'] })
 */
export async function startFront({ host, port, feed, heartbeatMs, allowedHosts = [], onRefused }: FrontOptions): Promise<Front> {
  const channel = reloadChannel(feed, { heartbeatMs });
  let target: number | undefined;
  const server: Server = createServer((req, res) => {
    const refusal = hostRefusal(req, allowedHosts);
    if (refusal !== undefined) {
      if (refusal.status === 403) onRefused?.(req.headers.host);
      refuseHost(res, refusal);
      return;
    }
    const path = req.url?.split('?', 1)[0];
    if (path === RELOAD_PATH) channel.handle(req, res);
    else if (target !== undefined) forward(req, res, target);
    else res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '1' }).end('503: the development server is not running; it starts after the next good build\n');
  });
  // Every header line reaches the Host check, however many (as production's: docs/filter.md §9);
  // the forwarding would pass on only the first of two.
  server.maxHeadersCount = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  // Every interface: the URL a browser on this machine takes (an address of every interface is
  // none to browse to, nor a name this front answers).
  const shown = ['0.0.0.0', '::'].includes(bound.address) ? 'localhost' : bound.address.includes(':') ? `[${bound.address}]` : bound.address;
  return {
    url: `http://${shown}:${bound.port}`,
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

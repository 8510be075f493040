/**
 * The development runner's forwarding of requests to the server it runs (docs/development.md §1):
 * each request goes to the current server process on loopback as it came (method, path, headers,
 * body), and its answer comes back as it is streamed. A restart switches the target between two
 * requests, so no request meets a server that is not listening yet.
 */
import { Agent, request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';

/** Headers of one connection, not of the message: never forwarded (RFC 9110 §7.6.1). */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

/** The headers of `message` without the hop-by-hop ones (nor those its `Connection` names). */
function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
  const kept = { ...headers };
  for (const name of [...HOP_BY_HOP, ...named]) delete kept[name];
  return kept;
}

/** Connections to the server are kept open between requests (each restart brings a new port). */
const agent = new Agent({ keepAlive: true });

/**
 * Forwards a request to `http://127.0.0.1:<port>` and streams the answer back. A server that
 * cannot be reached is a 502 naming why (before the head), or a cut connection (after it).
 * @param port the server's loopback port
 */
export function forward(req: IncomingMessage, res: ServerResponse, port: number): void {
  const upstream = request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: endToEnd(req.headers), agent }, (answer: IncomingMessage) => {
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
    answer.pipe(res);
    answer.on('error', () => res.destroy());
  });
  upstream.on('error', (error) => {
    if (res.headersSent) res.destroy();
    else res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`502: the development server did not answer (${error.message})\n`);
  });
  // A client that leaves takes its forwarded request with it.
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}

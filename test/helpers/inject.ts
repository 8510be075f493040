/**
 * In-process requests (docs/qa-kit.md §1): a request handed to the app's `http.Server` through a
 * pair of in-memory streams instead of a TCP connection. Node's own HTTP client writes it, Node's
 * own parser reads it and Node's own response writer answers, so the app sees what a connection
 * would bring (the target exactly as given, every header, a streamed body); only the kernel's
 * loopback is left out, which halves a request's time. Tests whose subject is the connection
 * itself (framing, resets, slow clients, signals, the peer's address) keep real sockets.
 */
import { request, type RequestOptions, type Server } from 'node:http';
import { Duplex } from 'node:stream';
import type { RawOptions, RawResponse } from './raw.js';

/** Two connected in-memory streams: what one end writes, the other reads; ending one ends the other's reading. */
function streamPair(): [Duplex, Duplex] {
  const ends: Duplex[] = [];
  const end = (self: number): Duplex =>
    new Duplex({
      write(chunk: Buffer, _encoding, done) {
        ends[1 - self]!.push(chunk);
        done();
      },
      final(done) {
        ends[1 - self]!.push(null);
        done();
      },
      destroy(error, done) {
        ends[1 - self]!.push(null);
        done(error);
      },
      read() {},
    });
  ends.push(end(0), end(1));
  return [ends[0]!, ends[1]!];
}

/** What Node's server and Express read of a connection besides its bytes. */
function asConnection(stream: Duplex, peer: string, port: number): Duplex {
  const noop = () => stream;
  return Object.assign(stream, { remoteAddress: peer, remotePort: 40000, localAddress: '127.0.0.1', localPort: port, setTimeout: noop, setNoDelay: noop, setKeepAlive: noop });
}

/**
 * Sends one request to a server in-process, the target exactly as given.
 * @param server the app's server (it need not listen)
 * @param path request target, e.g. `/assets/%2e%2e/over`
 * @param options method, headers, body, and `from`: the peer address the app sees (default 127.0.0.1)
 * @returns status, headers and the body as UTF-8
 * @throws the client's error when the server closes the connection without an answer
 */
export function inject(server: Server, path: string, { method = 'GET', headers = {}, body, from = '127.0.0.1' }: RawOptions = {}): Promise<RawResponse> {
  const { client, port } = connectInProcess(server, from);
  // The Host a client of the listening server would send (the port it listens on, else 80).
  return send({ createConnection: () => client as never, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, body);
}

/**
 * A connection to a server in-process: what the client end writes, the server reads as a
 * connection's bytes, exactly as written.
 * @param server the app's server (it need not listen)
 * @param from the peer address the app sees
 * @returns the client's end, and the port the server listens on (80 when it does not)
 */
export function connectInProcess(server: Server, from = '127.0.0.1'): { client: Duplex; port: number } {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 80;
  const [client, connection] = streamPair();
  server.emit('connection', asConnection(connection, from, port));
  return { client, port };
}

/**
 * Sends a request with Node's HTTP client and reads its whole response.
 * @param options `http.request`'s options (a port, or a connection to use)
 * @param body the request body, if any
 * @returns status, headers and the body as UTF-8
 * @throws the client's error when the connection closes without an answer
 */
export function send(options: RequestOptions, body?: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headerLines: Array<[string, string]> = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) headerLines.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, headerLines, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

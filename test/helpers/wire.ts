/**
 * A request written to the socket by the test, in parts and at its own pace (slow clients,
 * bodies that finish after a shutdown signal), with the response read off the wire.
 */
import { connect, type Socket } from 'node:net';

/** What came back on the wire. */
interface WireResponse {
  /** The status code, or 0 when the connection closed before a status line. */
  status: number;
  /** The header block as sent (lower-case names). */
  headers: Record<string, string>;
  body: string;
}

/** A request under way on its own connection. */
export interface WireRequest {
  socket: Socket;
  /** Writes more of the request; resolves when the bytes are handed to the kernel. */
  write(data: string | Buffer): Promise<void>;
  /** Resolves once the response has fully arrived (its length, its last chunk, or the connection's end). */
  response: Promise<WireResponse>;
  /** Resolves when the connection closes, with the milliseconds since it was opened. */
  closed: Promise<number>;
}

/**
 * Opens a connection to 127.0.0.1 and writes the first part of a request.
 * @param port the server's port
 * @param first the bytes to send at once (e.g. the request head and half a body)
 * @param from local loopback address to send from (rate limits are per address)
 */
export async function openWire(port: number, first: string | Buffer, from?: string): Promise<WireRequest> {
  const opened = Date.now();
  const socket = connect({ host: '127.0.0.1', port, localAddress: from });
  socket.on('error', () => undefined); // a reset shows as a response with status 0
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - opened)));
  const response = new Promise<WireResponse>((resolve) => {
    let data = Buffer.alloc(0);
    const done = () => resolve(parse(data));
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const parsed = parse(data);
      const length = parsed.headers['content-length'];
      if (length !== undefined && Buffer.byteLength(parsed.body) >= Number(length)) done();
      else if (parsed.headers['transfer-encoding'] === 'chunked' && /(^|\r\n)0\r\n\r\n$/.test(parsed.body)) done();
    });
    socket.once('close', done);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const write = (data: string | Buffer) => new Promise<void>((resolve) => socket.write(data, () => resolve()));
  await write(first);
  return { socket, write, response, closed };
}

function parse(data: Buffer): WireResponse {
  const text = data.toString('utf8');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: '' };
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0), headers, body: text.slice(end + 4) };
}

/**
 * Resolves once the server has answered a request on a connection opened now, so that every
 * request written before this call is in flight there: the server accepts connections in the
 * order they came, and its event loop reads what an earlier one holds in the same turn as a later
 * one, or before; a signal sent after the answer is handled in a later turn.
 * @param port the server's port on 127.0.0.1
 */
export async function readByServer(port: number): Promise<void> {
  const probe = await openWire(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  const { status } = await probe.response;
  if (status !== 200) throw new Error(`GET /healthz answered ${status}, not 200`);
}

/**
 * Requests written as raw bytes on one kept-alive connection, one after another, each answer read
 * whole off the wire with its header lines in the order they came: for tests that send many
 * requests whose bytes Node's client would not write (two `Host` lines, odd methods, targets as
 * given) and compare answers line by line. A connection the server closes is opened again for the
 * next request.
 */
import type { Server } from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { connectInProcess } from './inject.js';
import { within } from './wait.js';

/** An answer as it went over the wire. */
export interface WireAnswer {
  /** The status code, or 0 when the connection closed before a status line. */
  status: number;
  /** Every header line, name lowercased, in order. */
  headers: Array<[string, string]>;
  body: Buffer;
}

/** Where an answer ends, once its head is read: after `length` bytes, after its last chunk, or at the connection's end. */
type Framing = { length: number } | { chunked: true } | { toClose: true };

/** The head of an answer: status, header lines, where its body starts and how it ends; undefined while incomplete. */
function readHead(data: Buffer, bodiless: boolean): { status: number; headers: Array<[string, string]>; start: number; framing: Framing } | undefined {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = data.toString('latin1', 0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers = lines.map((line): [string, string] => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
  });
  const value = (name: string) => headers.find(([n]) => n === name)?.[1];
  const framing: Framing =
    bodiless || status === 204 || status === 304 || (status >= 100 && status < 200)
      ? { length: 0 }
      : value('transfer-encoding')?.toLowerCase().includes('chunked')
        ? { chunked: true }
        : value('content-length') !== undefined
          ? { length: Number(value('content-length')) }
          : { toClose: true };
  return { status, headers, start: end + 4, framing };
}

/** The body of a chunked answer and its length on the wire, or undefined while its last chunk has not come. */
function dechunk(data: Buffer, start: number): { body: Buffer; end: number } | undefined {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(data.toString('latin1', at, lineEnd), 16);
    if (size === 0) {
      const trailerEnd = data.indexOf('\r\n\r\n', lineEnd);
      return trailerEnd < 0 ? undefined : { body: Buffer.concat(parts), end: trailerEnd + 4 };
    }
    if (data.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** A connection to a server on 127.0.0.1 that sends one request at a time. */
export interface KeptAlive {
  /**
   * Writes one request and reads its answer whole (interim 1xx answers skipped).
   * @param bytes the request exactly as sent
   * @param head whether it is a HEAD request: its answer has no body whatever its length says
   * @returns the answer; status 0 when the connection closed without one
   * @throws Error when no answer has come within 10 s
   */
  send(bytes: string | Buffer, head: boolean): Promise<WireAnswer>;
  close(): void;
}

/**
 * A kept-alive connection to a server: over TCP, or in-process (test/helpers/inject.ts), where the
 * connection is not the subject and the kernel's loopback would only cost time.
 * @param to the server's port on 127.0.0.1, or the server itself to connect in-process
 * @example const wire = keptAlive(app.server); const answer = await wire.send('GET / HTTP/1.1\r\nHost: a\r\n\r\n', false);
 */
export function keptAlive(to: number | Server): KeptAlive {
  let socket: Duplex | undefined;
  let ended = true;
  const open = () =>
    new Promise<Duplex>((resolve, reject) => {
      const s = typeof to === 'number' ? connect({ host: '127.0.0.1', port: to }) : connectInProcess(to).client;
      // Ended between requests too (the server's keep-alive time-out): the next request opens another.
      const gone = () => {
        if (socket === s) ended = true;
      };
      s.once('end', gone);
      s.once('close', gone);
      if (typeof to !== 'number') return resolve(s);
      s.once('connect', () => resolve(s));
      s.once('error', reject);
    });
  return {
    async send(bytes, head) {
      if (ended || socket === undefined) {
        socket?.destroy();
        socket = await open();
        ended = false;
      }
      const s = socket;
      s.removeAllListeners('error');
      s.on('error', () => undefined); // a reset shows as the end of what came
      const answer = new Promise<WireAnswer>((resolve) => {
        let data = Buffer.alloc(0);
        const finish = (answer: WireAnswer, closing: boolean) => {
          s.off('data', onData);
          s.off('end', onClose);
          s.off('close', onClose);
          if (closing) ended = true;
          resolve(answer);
        };
        const tryFinish = (atClose: boolean) => {
          for (;;) {
            const parsed = readHead(data, head);
            if (parsed === undefined) return atClose && finish({ status: 0, headers: [], body: Buffer.alloc(0) }, true);
            const { status, headers, start, framing } = parsed;
            if (status >= 100 && status < 200) {
              data = data.subarray(start);
              continue;
            }
            const closing = atClose || headers.some(([name, value]) => name === 'connection' && /\bclose\b/i.test(value));
            if ('length' in framing) {
              if (data.length >= start + framing.length) return finish({ status, headers, body: data.subarray(start, start + framing.length) }, closing);
            } else if ('chunked' in framing) {
              const chunks = dechunk(data, start);
              if (chunks) return finish({ status, headers, body: chunks.body }, closing);
            }
            if (atClose) return finish({ status, headers, body: data.subarray(start) }, true);
            return;
          }
        };
        const onData = (chunk: Buffer) => {
          data = Buffer.concat([data, chunk]);
          tryFinish(false);
        };
        const onClose = () => tryFinish(true);
        s.on('data', onData);
        // The server's end of the answer: `end` in-process, where nothing closes the client's half.
        s.once('end', onClose);
        s.once('close', onClose);
      });
      s.write(bytes);
      return within(answer, 10_000, 'the answer on the kept-alive connection');
    },
    close() {
      socket?.destroy();
      ended = true;
    },
  };
}

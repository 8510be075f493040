/**
 * Requests Node's parser rejects (a malformed request line or header, headers over the size
 * limit, a request not complete within the time-outs) never reach Express, so the request log
 * has no line for them. This answers them exactly as Node does by default (400, 431 or 408, then
 * the connection closed) and writes one `request_rejected` line per connection at `warn`, with
 * the parser's code and reason and never the bytes received (docs/operations.md §2, §6). A
 * request that did reach Express (its body is what timed out, or what the parser refused) has its
 * own line: the status written here is recorded for it, and no second line is written. A client
 * that went away mid-request gets no answer and no line here.
 */
import type { Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { markServerAnswer } from './request-end.js';

/** Node's own answers (lib/_http_server.js), by error code; anything else is a 400. */
const ANSWERS: Readonly<Record<string, { status: number; text: string }>> = {
  HPE_HEADER_OVERFLOW: { status: 431, text: 'Request Header Fields Too Large' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, text: 'Payload Too Large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, text: 'Request Timeout' },
};
const BAD_REQUEST = { status: 400, text: 'Bad Request' };

/**
 * Codes of a client that went away mid-request (a reset, or the end of its stream inside a head
 * or a body), not of a request that was refused: nothing to log, and nobody to answer.
 */
const GONE = new Set(['ECONNRESET', 'EPIPE', 'HPE_INVALID_EOF_STATE']);

/** What Node's parser fails a connection with. */
type ParserError = Error & { code?: string; reason?: string };

/**
 * Takes over the server's `clientError` event.
 * @param server the HTTP server
 * @param logger the process logger
 */
export function logParserErrors(server: Server, logger: Logger): void {
  server.on('clientError', function clientError(error: ParserError, socket: Duplex & { _httpMessage?: ServerResponse | null }) {
    // A client gone mid-request is not answered, even one that only ended its side of the
    // connection (Node would write a 400 to it): a request under way then ends as aborted, and its
    // line says so (docs/operations.md §2, §6).
    if (GONE.has(error.code ?? '')) {
      socket.destroy(error);
      return;
    }
    // The response of a request Express is handling on this connection, if any.
    const underWay = socket._httpMessage ?? undefined;
    // As Node does: answer only where no response of this connection has begun.
    const answerable = socket.writable && !underWay?.headersSent;
    const answer = ANSWERS[error.code ?? ''] ?? BAD_REQUEST;
    if (underWay && answerable) markServerAnswer(underWay, answer.status);
    if (!underWay) {
      logger.warn(
        { event: 'request_rejected', code: error.code, reason: error.reason ?? error.message, status: answerable ? answer.status : undefined },
        'request_rejected',
      );
    }
    if (answerable) socket.write(`HTTP/1.1 ${answer.status} ${answer.text}\r\nConnection: close\r\n\r\n`);
    socket.destroy(error);
  });
}

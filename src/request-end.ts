/**
 * How a request ended when its response did not end it (docs/operations.md §2): its client left
 * (a reset, or a close mid-request), or Node's server answered on the response's behalf (the 408
 * of a body that did not arrive in time, the 400 of one its parser refused). The request log, the
 * metrics, the rate limits and the error handler read it here, so a request gets one line, with
 * the status that was really sent or none.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Ends a middleware chain whose client has gone: the error handler answers nothing for it. */
export class ClientGoneError extends Error {
  constructor() {
    super('The client left before its request was answered');
    this.name = 'ClientGoneError';
  }
}

/**
 * Whether a request's client has gone: its connection was closed, or reset. A reset is known to
 * the kernel before Node reads it: a TCP connection (one with a local port) then has no peer any
 * more, so its address (and `req.ip`) is undefined while the socket still looks open. Nothing
 * written reaches anyone.
 * @param req the request
 */
export function clientGone(req: IncomingMessage): boolean {
  const { socket } = req;
  return socket.destroyed || (socket.remoteAddress === undefined && socket.localPort !== undefined);
}

/** Statuses Node's server wrote itself for a response under way (src/parser-errors.ts). */
const SERVER_ANSWERS = new WeakMap<ServerResponse, number>();

/**
 * Records that the server answered a response under way with a status of its own, written
 * straight to the socket (a request time-out's 408).
 * @param res the response the request had
 * @param status the status written, e.g. 408
 */
export function markServerAnswer(res: ServerResponse, status: number): void {
  SERVER_ANSWERS.set(res, status);
}

/**
 * The status the server wrote itself for a response under way, if it did.
 * @param res the response
 */
export function serverAnswer(res: ServerResponse): number | undefined {
  return SERVER_ANSWERS.get(res);
}

/**
 * The status a client was sent: the response's own once its head went out, the server's when it
 * answered instead, undefined when the client got nothing.
 * @param res the response, at or after its close
 */
export function sentStatus(res: ServerResponse): number | undefined {
  return serverAnswer(res) ?? (res.headersSent ? res.statusCode : undefined);
}

/**
 * Whether a request was cut short by its client: it left before the request had arrived whole
 * and before any answer, the app's or the server's (a reset or a close mid-head or mid-body).
 * Such a request never was: a rate limit that counted it gives its count back (docs/forms.md §7).
 * @param req the request
 * @param res its response, at or after its close
 */
export function cutShort(req: IncomingMessage, res: ServerResponse): boolean {
  return !req.complete && !res.writableEnded && serverAnswer(res) === undefined;
}

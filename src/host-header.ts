/**
 * The `Host` header as RFC 9112 §3.2 demands it: a server "MUST respond with a 400 (Bad
 * Request) status code to any request message that contains more than one Host header field
 * line or a Host header field with an invalid field value". Node's parser lets both through
 * (it keeps the first of two), so a proxy and Eiland could disagree about which site a request
 * is for. Answered like Node's own parser errors: plain text, and the connection closed.
 */
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { HttpError } from './errors.js';

/**
 * `uri-host [ ":" port ]`: a bracketed IP literal or a reg-name/IPv4 of RFC 3986 characters.
 * Empty is valid (RFC 9112 §3.2: for a target without an authority).
 */
const VALID_HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]*)(?::[0-9]*)?$/;

/**
 * Why a request's `Host` is refused, if it is.
 * @param req the raw request (its `rawHeaders` keep every line)
 * @returns `duplicate`, `invalid`, or undefined for one valid `Host` (or none: HTTP/1.0, which
 *   Node's parser has already judged)
 */
export function hostProblem(req: IncomingMessage): 'duplicate' | 'invalid' | undefined {
  let count = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.length === 4 && req.rawHeaders[i]!.toLowerCase() === 'host') count += 1;
  }
  if (count > 1) return 'duplicate';
  const host = req.headers.host;
  return host === undefined || VALID_HOST.test(host) ? undefined : 'invalid';
}

/**
 * A middleware that fails a request with two `Host` lines or an invalid one: a plain 400 and
 * its connection closed (the error handler), before any path is looked at.
 * @example app.use(singleHost())
 */
export function singleHost(): RequestHandler {
  return function singleHost(req, _res, next) {
    const problem = hostProblem(req);
    if (problem === undefined) {
      next();
      return;
    }
    const plain = problem === 'duplicate' ? 'Bad Request: more than one Host header' : 'Bad Request: invalid Host header';
    next(new HttpError(400, plain, { plain, headers: { Connection: 'close' } }));
  };
}

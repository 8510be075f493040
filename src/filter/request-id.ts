/**
 * Request ids (docs/filter.md §3). An incoming `X-Request-Id` is kept only
 * when short and of a safe alphabet (no log injection, as Hono's requestId does);
 * otherwise a fresh UUID is made.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { REQUEST_ID_PATTERN } from '../../protocol/request-id.js';


/**
 * The request id for an incoming request.
 * @param req the raw request; its `x-request-id` header is read
 * @returns the incoming id if it matches `^[A-Za-z0-9._-]{1,64}$`, else a new UUID
 */
export function requestIdFor(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
}

/**
 * With `PUBLIC_ORIGIN` set (docs/filter.md §9), a request for another host is a 400: a DNS name rebound
 * to this server's address cannot reach a page or a form as if it were the site.
 */
import type { RequestHandler } from 'express';
import { HttpError } from '../errors.js';
import { ownOrigin } from './cross-site.js';

/**
 * Refuses requests whose protocol and `Host` (X-Forwarded-* only under `TRUST_PROXY`, as
 * Express applies it) are not one of the public origins.
 * @param origins e.g. `['https://eiland.example', 'https://www.eiland.example']`
 */
export function publicHost(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  return function publicHost(req, _res, next) {
    if (allowed.has(ownOrigin(req))) next();
    else next(new HttpError(400, 'Host is not one of the public origins'));
  };
}

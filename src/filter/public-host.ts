/**
 * With `PUBLIC_ORIGIN` set (docs/filter.md §9), a request for another host is a 400: a DNS name rebound
 * to this server's address cannot reach a page or a form as if it were the site.
 */
import type { RequestHandler } from 'express';
import { HttpError } from '../errors.js';
import { ownOrigin } from './cross-site.js';

/**
 * Refuses a request unless both names it gives for its site are public: the `Host` line itself,
 * and the protocol with the host Express believes (`X-Forwarded-Host` and `-Proto` from a proxy
 * that `TRUST_PROXY` trusts, else `Host` and the connection). Checking only the believed one lets
 * a page on a rebound name through a proxy that passes the client's `X-Forwarded-Host` on; checking
 * only `Host` lets a forged `X-Forwarded-Host` choose the canonical URLs.
 * @param origins e.g. `['https://eiland.example', 'https://www.eiland.example']`
 */
export function publicHost(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  const hosts = new Set(origins.map((origin) => new URL(origin).host));
  return function publicHost(req, _res, next) {
    if (!hosts.has(req.headers.host ?? '')) next(new HttpError(400, 'Host is not one of the public origins'));
    else if (!allowed.has(ownOrigin(req))) next(new HttpError(400, 'Forwarded host or protocol is not one of the public origins'));
    else next();
  };
}

/**
 * With `PUBLIC_ORIGIN` set (docs/filter.md §9), a request for another host is a 400: a DNS name rebound
 * to this server's address cannot reach a page or a form as if it were the site.
 */
import type { Request, RequestHandler } from 'express';
import { HttpError } from '../errors.js';
import { ownOrigin } from './cross-site.js';

/**
 * Why a request is not for one of the public origins, if it is not: both names it gives for its
 * site must be public, the `Host` line itself, and the protocol with the host Express believes
 * (`X-Forwarded-Host` and `-Proto` from a proxy that `TRUST_PROXY` trusts, else `Host` and the
 * connection). Checking only the believed one lets a page on a rebound name through a proxy that
 * passes the client's `X-Forwarded-Host` on; checking only `Host` lets a forged `X-Forwarded-Host`
 * choose the canonical URLs.
 * @param origins e.g. `['https://eiland.example', 'https://www.eiland.example']`
 * @returns a check of a request (through Express's getters), giving the 400's message or undefined
 */
export function publicHostCheck(origins: readonly string[]): (req: Request) => string | undefined {
  const allowed = new Set(origins);
  const hosts = new Set(origins.map((origin) => new URL(origin).host));
  return (req) => {
    if (!hosts.has(req.headers.host ?? '')) return 'Host is not one of the public origins';
    if (!allowed.has(ownOrigin(req))) return 'Forwarded host or protocol is not one of the public origins';
    return undefined;
  };
}

/**
 * Refuses a request for another site with a 400 (see {@link publicHostCheck}).
 * @param origins e.g. `['https://eiland.example', 'https://www.eiland.example']`
 */
export function publicHost(origins: readonly string[]): RequestHandler {
  const problem = publicHostCheck(origins);
  return function publicHost(req, _res, next) {
    const message = problem(req);
    if (message === undefined) next();
    else next(new HttpError(400, message));
  };
}

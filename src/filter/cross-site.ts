/**
 * Filter step 4: cross-site protection for unsafe methods (docs/filter.md §6).
 * First the fetch-metadata / Origin check, then a signed double-submit token
 * (csrf-csrf) bound to a signed anonymous cookie id.
 */
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { serialize, type CookieSerializeOptions } from 'cookie';
import cookieParser from 'cookie-parser';
import { sign } from 'cookie-signature';
import { doubleCsrf, type DoubleCsrfUtilities } from 'csrf-csrf';
import type { Logger } from 'pino';
import { HttpError } from '../errors.js';
import { CSRF_FIELD } from '../../protocol/forms.js';
import type { CsrfTokens } from './types.js';


/** A same-origin request whose CSRF token is missing, stale or forged (403). */
export class CsrfTokenError extends HttpError {
  constructor() {
    super(403, 'CSRF token missing or invalid');
    this.name = 'CsrfTokenError';
  }
}

/** Options of {@link crossSiteProtection} and {@link csrfTokens}. */
interface CrossSiteOptions {
  /** Secret for the HMAC of tokens (the cookie-parser secret signs the cookie id). */
  secret: string;
  logger: Logger;
  /** `PUBLIC_ORIGIN`: the origins the site is served at; `Origin` must be one of them. */
  publicOrigins?: readonly string[];
}

const sessionIds = new WeakMap<Request, string>();

function cookieNames(secure: boolean) {
  // `__Host-` cookies are refused over plain http (docs/filter.md §6).
  return secure ? { sid: '__Host-eiland.sid', csrf: '__Host-eiland.csrf' } : { sid: 'eiland.sid', csrf: 'eiland.csrf' };
}

/** The anonymous cookie id the token is bound to ('' when the browser sent none). */
function sessionIdOf(req: Request): string {
  const signed = (req.signedCookies as Record<string, unknown> | undefined)?.[cookieNames(req.secure).sid];
  return sessionIds.get(req) ?? (typeof signed === 'string' ? signed : '');
}

function ensureSessionId(req: Request, res: Response): void {
  if (sessionIdOf(req) !== '') return;
  const id = randomUUID();
  sessionIds.set(req, id);
  res.cookie(cookieNames(req.secure).sid, id, { signed: true, httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/' });
}

function csrfFor(secret: string, secure: boolean): DoubleCsrfUtilities {
  return doubleCsrf({
    getSecret: () => secret,
    getSessionIdentifier: sessionIdOf,
    cookieName: cookieNames(secure).csrf,
    cookieOptions: { sameSite: 'lax', secure, httpOnly: true, path: '/' },
    getCsrfTokenFromRequest: (req) => {
      const body = req.body as Record<string, unknown> | undefined;
      const fromBody = body?.[CSRF_FIELD];
      return typeof fromBody === 'string' ? fromBody : req.get('x-csrf-token');
    },
  });
}

/**
 * The expected origin of this site: protocol and `Host` (X-Forwarded-* only
 * when `trust proxy` says so, which Express applies to `req.protocol`/`req.host`).
 */
export function ownOrigin(req: Request): string {
  return `${req.protocol}://${req.host}`;
}

/**
 * Whether the request comes from this site, by `Sec-Fetch-Site` when present, else by `Origin`
 * when present (`Origin: null` refused); true when neither is sent. `Origin` is compared with
 * the configured public origins when there are any (docs/filter.md §6: with `Host` alone, a rebound DNS
 * name passes), else with the request's own protocol and `Host`.
 * @param publicOrigins `PUBLIC_ORIGIN`'s origins, e.g. `['https://eiland.example']`, or undefined
 */
function sameOrigin(req: Request, publicOrigins: readonly string[] | undefined): boolean {
  const site = req.get('sec-fetch-site');
  if (site !== undefined) return site === 'same-origin' || site === 'none';
  const origin = req.get('origin');
  if (origin === undefined) return true;
  return publicOrigins ? publicOrigins.includes(origin) : origin === ownOrigin(req);
}

/** Options of a cookie set through {@link cookieJar}'s `res.cookie`, as csrf-csrf and the session id give them. */
type CookieOptions = CookieSerializeOptions & { signed?: boolean };

/**
 * Collects the `Set-Cookie` values of one token's issue, in the order they are set: what
 * `res.cookie` would set on an Express response (a signed value as cookie-parser reads it back,
 * `Path=/` unless given), for csrf-csrf, which sets its cookie through `res.cookie`, and for the
 * session id. Both paths send the same values: the Express path appends them to its response, the
 * fast path writes them with its header lines.
 * @param secret the cookie-parser secret, which signs signed values
 */
function cookieJar(secret: string): { res: Response; values: string[] } {
  const values: string[] = [];
  const cookie = (name: string, value: string, { signed, ...options }: CookieOptions) => {
    values.push(serialize(name, signed ? `s:${sign(value, secret)}` : value, { path: '/', ...options }));
  };
  return { res: { cookie } as unknown as Response, values };
}

/**
 * Creates the cross-site protection of docs/filter.md §6.
 * @param options the secret and the logger for `csrf_rejected` events
 */
export function csrfTokens({ secret, logger, publicOrigins }: CrossSiteOptions): CsrfTokens {
  const overHttps = csrfFor(secret, true);
  const overHttp = csrfFor(secret, false);
  const pick = (req: Request) => (req.secure ? overHttps : overHttp);
  // Cookies are parsed only where a token is issued or checked, not for every page; cookie-parser
  // reads the request alone.
  const parseCookies = cookieParser(secret);
  const withCookies = (req: Request) => {
    if (req.cookies === undefined) parseCookies(req, undefined as unknown as Response, () => {});
  };
  const issue = (req: Request) => {
    withCookies(req);
    const jar = cookieJar(secret);
    ensureSessionId(req, jar.res);
    const token = pick(req).generateCsrfToken(req, jar.res, { overwrite: false, validateOnReuse: false });
    return { token, values: jar.values };
  };
  return {
    issue(req, res) {
      const { token, values } = issue(req);
      for (const value of values) res.append('Set-Cookie', value);
      return token;
    },
    issueLines(req) {
      const { token, values } = issue(req);
      return { token, lines: values.flatMap((value) => ['Set-Cookie', value]) };
    },
    protect({ tokenRequired = true } = {}) {
      return function crossSiteProtection(req, _res, next) {
        withCookies(req);
        if (!sameOrigin(req, publicOrigins)) {
          (req.log ?? logger).warn({ event: 'csrf_rejected', reason: 'cross-site' }, 'csrf_rejected');
          next(new HttpError(403, 'Cross-site request refused'));
          return;
        }
        if (tokenRequired && !pick(req).validateRequest(req)) {
          (req.log ?? logger).warn({ event: 'csrf_rejected', reason: 'token' }, 'csrf_rejected');
          next(new CsrfTokenError());
          return;
        }
        next();
      };
    },
  };
}

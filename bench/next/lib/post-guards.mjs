/**
 * What Eiland does to a form post before its action, for getServerSideProps (server only), with
 * the same packages and storage call: the cross-site check of src/filter/cross-site.ts (the
 * `Sec-Fetch-Site` or `Origin` header, then csrf-csrf's double-submit token bound to a signed
 * session-id cookie) and the per-address rate limit of src/filter/rate-limit.ts (one
 * `hitRateLimit` on Eiland's storage, `FORM_RATE_LIMIT`'s default of 20 posts in 10 minutes).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { serialize } from 'cookie';
import { sign, unsign } from 'cookie-signature';
import { doubleCsrf } from 'csrf-csrf';
import { CSRF_FIELD } from '../../../protocol/forms.js';
import { openStorage } from './db.mjs';

/** The site's secret: Eiland keeps one in its database; one per process here. */
const SECRET = randomBytes(32).toString('base64url');
/** The cookies' names over plain http, as Eiland names them there. */
const NAMES = { sid: 'eiland.sid', csrf: 'eiland.csrf' };
/** `FORM_RATE_LIMIT`'s default (src/config.ts) and the counter's key, as Eiland's limiter writes it. */
const LIMIT = { hits: 20, windowMs: 10 * 60_000, prefix: 'posts of the registration form:' };

/** The request's session id: set by {@link issueToken} earlier in this request, else from its signed cookie. */
const sessionIdOf = (req) => {
  if (req.eilandSid === undefined) {
    const value = req.cookies[NAMES.sid];
    const unsigned = typeof value === 'string' && value.startsWith('s:') ? unsign(value.slice(2), SECRET) : false;
    req.eilandSid = unsigned === false ? '' : unsigned;
  }
  return req.eilandSid;
};

const csrf = doubleCsrf({
  getSecret: () => SECRET,
  getSessionIdentifier: sessionIdOf,
  cookieName: NAMES.csrf,
  cookieOptions: { sameSite: 'lax', secure: false, httpOnly: true, path: '/' },
  getCsrfTokenFromRequest: (req) => req.body?.[CSRF_FIELD],
});

/**
 * The form's token for a render, with its cookies (a session id first, when the request has none).
 * @param req Next's request (its `cookies` parsed)
 * @param res Next's response: the cookies are appended as `Set-Cookie`
 */
export function issueToken(req, res) {
  const cookies = [];
  if (sessionIdOf(req) === '') {
    req.eilandSid = randomUUID();
    cookies.push(serialize(NAMES.sid, `s:${sign(req.eilandSid, SECRET)}`, { httpOnly: true, sameSite: 'lax', path: '/' }));
  }
  const jar = { cookie: (name, value, options) => cookies.push(serialize(name, value, { path: '/', ...options })) };
  const token = csrf.generateCsrfToken(req, jar, { overwrite: false, validateOnReuse: false });
  res.appendHeader('Set-Cookie', cookies);
  return token;
}

/**
 * Counts a post against its client address's limit, before its body is read, as Eiland does.
 * @param req Next's request
 * @returns the refusal (429) over the limit; undefined when the post may go on
 */
export async function overLimit(req) {
  const { hits } = await (await openStorage()).hitRateLimit(LIMIT.prefix + req.socket.remoteAddress, LIMIT.windowMs);
  return hits > LIMIT.hits ? { status: 429, text: 'Too many posts of the registration form from this client address' } : undefined;
}

/**
 * Eiland's cross-site protection of a read post: another site's post, or a missing or wrong token.
 * @param req Next's request, its parsed fields in `req.body`
 * @returns the refusal (403); undefined when the post may go on
 */
export function crossSite(req) {
  const site = req.headers['sec-fetch-site'];
  const origin = req.headers.origin;
  const sameOrigin = site !== undefined ? site === 'same-origin' || site === 'none' : origin === undefined || origin === `http://${req.headers.host}`;
  if (!sameOrigin) return { status: 403, text: 'Cross-site request refused' };
  return csrf.validateRequest(req) ? undefined : { status: 403, text: 'CSRF token missing or invalid' };
}

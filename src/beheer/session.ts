/**
 * Staff sessions (docs/beheer.md §2): a 256-bit random id in the cookie, kept in the database only
 * as its SHA-256, so every instance on it agrees; ended after 30 minutes idle, 12 hours in all, at
 * logout, and at once when the account is disabled or its password reset (those delete its rows).
 * The cookie is `__Host-beheer` (`Secure`, `HttpOnly`, `SameSite=Strict`, `Path=/`); only a
 * plain-HTTP request to a loopback name gets `beheer` without `Secure`, which a browser keeps there.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { parse, serialize } from 'cookie';
import type { StaffAccount } from '../storage/staff-types.js';
import type { Storage } from '../storage/types.js';

/** A session ends after this long without a request, in ms. */
export const IDLE_MS = 30 * 60 * 1000;

/** A session ends this long after its login, in ms. */
export const ABSOLUTE_MS = 12 * 60 * 60 * 1000;

/** A session's last-seen time is written at most this often, in ms: not a write per request. */
const TOUCH_EVERY_MS = 60 * 1000;

/** Names a browser reaches this machine by. */
const LOOPBACK = /^(?:localhost|[^.]+\.localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/** Whether a request may use beheer over plain HTTP: only on a loopback name. */
export function plainLoopback(req: Request): boolean {
  return !req.secure && LOOPBACK.test(req.host.replace(/:\d+$/, ''));
}

/** The cookie's name for a request: `__Host-` wherever it can be kept. */
export const cookieName = (req: Request): string => (plainLoopback(req) ? 'beheer' : '__Host-beheer');

/** A new secret: 256 random bits, base64url. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/** The SHA-256 of a secret, hex: what the database keeps of a session id or a link. */
export const digest = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** A signed-in request's session. */
export interface SignedIn {
  account: StaffAccount;
  /** The session id's digest. */
  idHash: string;
  /** The CSRF token of this session's forms (docs/beheer.md §3). */
  csrfToken: string;
}

/**
 * The CSRF token bound to a session: an HMAC of its id's digest, so a form of one session is
 * refused in another.
 * @param secret the site's CSRF secret
 */
export function sessionToken(secret: string, idHash: string): string {
  return createHmac('sha256', secret).update(`beheer:${idHash}`).digest('base64url');
}

/** Whether a posted token is the session's. */
export function tokenMatches(expected: string, given: unknown): boolean {
  if (typeof given !== 'string' || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/**
 * The session a request's cookie names, when it is live: ended (its row deleted) when it has
 * been idle or open too long, or its account is disabled or has no password.
 * @param now ms since the epoch
 */
export async function sessionOf(req: Request, storage: Storage, secret: string, now: number): Promise<SignedIn | undefined> {
  const id = parse(req.headers.cookie ?? '')[cookieName(req)];
  if (id === undefined || id.length !== 43) return undefined;
  const idHash = digest(id);
  const session = await storage.staff.session(idHash);
  if (session === undefined) return undefined;
  if (now - session.seenAt > IDLE_MS || now - session.createdAt > ABSOLUTE_MS || session.account.disabledAt !== null || session.account.passwordHash === null) {
    await storage.staff.endSession(idHash);
    return undefined;
  }
  if (now - session.seenAt > TOUCH_EVERY_MS) await storage.staff.touchSession(idHash, now);
  return { account: session.account, idHash, csrfToken: sessionToken(secret, idHash) };
}

/**
 * Starts a session for an account: a new id, its digest stored, the cookie set.
 * @returns the session
 */
export async function startSession(req: Request, res: Response, storage: Storage, secret: string, account: StaffAccount, now: number): Promise<SignedIn> {
  const id = newSecret();
  const idHash = digest(id);
  await storage.staff.startSession(idHash, account.id, now);
  const secure = !plainLoopback(req);
  res.append('Set-Cookie', serialize(cookieName(req), id, { httpOnly: true, sameSite: 'strict', secure, path: '/' }));
  return { account, idHash, csrfToken: sessionToken(secret, idHash) };
}

/** Clears the session cookie. */
export function clearSession(req: Request, res: Response): void {
  res.append('Set-Cookie', serialize(cookieName(req), '', { httpOnly: true, sameSite: 'strict', secure: !plainLoopback(req), path: '/', maxAge: 0 }));
}

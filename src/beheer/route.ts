/**
 * Beheer's routes and the rules every one of them keeps (docs/beheer.md §3): each declares who may
 * use it; nobody else does. An anonymous request for a page goes 303 to the login with the page to
 * return to, for a download it gets 401; an account whose role is too weak gets 403. Every answer
 * under `/beheer` is `Cache-Control: no-store` and `X-Robots-Tag: noindex`, and no beheer route
 * is a page of the route table, so none is in the render cache, the fast path or the sitemap. A
 * post of a signed-in session carries the token bound to it; the login's, the site's token.
 */
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import type { ReactNode } from 'react';
import { CSRF_FIELD } from '../../protocol/forms.js';
import { HttpError } from '../errors.js';
import { formBody } from '../forms/body.js';
import type { CsrfTokens, RateLimit, RateLimits } from '../filter/types.js';
import type { Metrics } from '../metrics/index.js';
import type { Render } from '../render/types.js';
import { methodNotAllowed, routeName, TITLE_SUFFIX } from '../routes/router.js';
import type { AuditEntry } from '../storage/staff-types.js';
import type { Storage } from '../storage/types.js';
import { allows, type Access } from './roles.js';
import { plainLoopback, sessionOf, tokenMatches, type SignedIn } from './session.js';

/** Where beheer lives. */
export const BEHEER = '/beheer';

/** The login page's path. */
export const LOGIN_PATH = `${BEHEER}/inloggen`;

/** The query parameter of the page to return to after the login. */
export const RETURN_PARAM = 'terug';

/** What a beheer handler gets. */
export interface BeheerContext {
  req: Request;
  res: Response;
  /** The signed-in session; absent only on a route for anyone. */
  staff: SignedIn | undefined;
  storage: Storage;
  /** The site's CSRF secret (a session's token is derived from it). */
  secret: string;
  /** Writes an entry of the audit log, with this account and client address. */
  audit(entry: Omit<AuditEntry, 'staffId' | 'address'> & { staffId?: string }): Promise<void>;
  /** The app's instruments (the logins' counter). */
  metrics: Metrics;
  /** Renders a beheer page: its title (without the site suffix), status and content. */
  page(status: number, title: string, content: ReactNode): void;
}

/** A beheer route. */
export interface BeheerRoute {
  /** Express path pattern under `/beheer`. */
  path: string;
  /** Who may use it. */
  access: Access;
  /** What an anonymous request gets: a page goes to the login (303), a download is refused (401). */
  answers: 'page' | 'download';
  /** Posts allowed per client address and window (the login's), counted in the database. */
  rateLimit?: RateLimit;
  /** Parameters that are secrets (a password link's token): masked wherever the path is logged. */
  secretParams?: readonly string[];
  get?(ctx: BeheerContext): Promise<void>;
  post?(ctx: BeheerContext): Promise<void>;
}

/**
 * Whether a return path is one of this site's: a path, not `//host` or `/\host`, which a browser
 * takes for another origin.
 */
export function safeReturn(path: unknown): path is string {
  return typeof path === 'string' && path.startsWith('/') && !/^\/[/\\]/.test(path) && !/[\u0000-\u001f\\]/.test(path);
}

/** The login's address that returns to a path. */
export const loginFor = (path: string): string => `${LOGIN_PATH}?${new URLSearchParams({ [RETURN_PARAM]: path })}`;

/** Options of {@link addBeheerRoutes}. */
export interface BeheerRoutesOptions {
  routes: readonly BeheerRoute[];
  storage: Storage;
  secret: string;
  render: Render;
  csrf: CsrfTokens;
  limits: RateLimits;
  metrics: Metrics;
}

/** `no-store` and `noindex` on every answer under `/beheer`, errors included; plain HTTP only on loopback. */
function beheerHeaders(): RequestHandler {
  return function beheerHeaders(req, res, next) {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Robots-Tag', 'noindex');
    // A session cookie must not cross the network in clear (docs/beheer.md §2).
    if (!req.secure && !plainLoopback(req)) return next(new HttpError(403, 'beheer over plain HTTP outside loopback'));
    next();
  };
}

/**
 * Adds beheer's routes: each behind its access rule, its post behind the cross-site check and the
 * token, every other method a 405.
 * @param router the app's one router (see `addPageRoutes`)
 */
export function addBeheerRoutes(router: Router, { routes, storage, secret, render, csrf, limits, metrics }: BeheerRoutesOptions): void {
  router.use(BEHEER, beheerHeaders());
  const origin = csrf.protect({ tokenRequired: false });
  const siteToken = csrf.protect();
  for (const route of routes) {
    const context = (req: Request, res: Response, next: NextFunction): BeheerContext => {
      const staff = res.locals.staff as SignedIn | undefined;
      return {
        req,
        res,
        staff,
        storage,
        secret,
        metrics,
        audit: (entry) => storage.staff.audit({ staffId: staff?.account.id, ...entry, address: req.ip }, Date.now()),
        page: (status, title, content) =>
          render(req, res, { status, title: title + TITLE_SUFFIX, content, cacheControl: 'no-store', meta: { noindex: true }, islands: [], props: {}, kind: 'ssr', onShellError: next }),
      };
    };
    const guard: RequestHandler = async function beheerAccess(req, res, next) {
      const staff = await sessionOf(req, storage, secret, Date.now());
      res.locals.staff = staff;
      if (route.access === 'anyone') return next();
      if (staff === undefined) {
        if (route.answers === 'download') return next(new HttpError(401, 'beheer download without a session', { headers: { 'WWW-Authenticate': 'Cookie' } }));
        return res.redirect(303, loginFor(req.method === 'GET' ? req.originalUrl : req.path));
      }
      if (!allows(staff.account.role, route.access)) return next(new HttpError(403, `beheer route needs ${route.access}`));
      next();
    };
    // A signed-in session's post carries its own token; the login's and a link's, the site's.
    const token: RequestHandler = function beheerToken(req, res, next) {
      const staff = res.locals.staff as SignedIn | undefined;
      if (route.access === 'anyone') return siteToken(req, res, next);
      origin(req, res, (err?: unknown) => {
        if (err) return next(err);
        if (!tokenMatches(staff!.csrfToken, (req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD])) {
          req.log.warn({ event: 'csrf_rejected', reason: 'token' }, 'csrf_rejected');
          return next(new HttpError(403, 'beheer token missing or not this session’s'));
        }
        next();
      });
    };
    const r = router.route(route.path).all(routeName(route.path), guard);
    const allow = ['GET', 'HEAD'];
    if (route.get) r.get(async (req, res, next) => route.get!(context(req, res, next)));
    if (route.post) {
      const limited = route.rateLimit ? [limits.perClient(route.rateLimit, `posts of ${route.path}`)] : [];
      r.post(...limited, ...formBody(), token, async (req, res, next) => route.post!(context(req, res, next)));
      allow.push('POST');
    }
    r.all(methodNotAllowed(route.get ? allow.join(', ') : 'POST'));
  }
}

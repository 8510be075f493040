/**
 * The shape of the route table (docs/pages.md §1). Shared by the router and the
 * page modules; no runtime code.
 */
import type { Request } from 'express';
import type { ComponentType } from 'react';
import type { Logger } from 'pino';

import type { RateLimit } from '../filter/rate-limit.js';
import type { FormOutcome } from '../metrics/index.js';
import type { RouteDeclaration } from '../../protocol/routes.js';

/** What a loader gets. */
export interface LoaderContext {
  req: Request;
  /** The CSRF token for a form on the page (sets its cookies on first call). */
  csrfToken(): string;
  /** A fresh submission key for the form on the page: a random UUID (docs/forms.md §7). */
  submissionKey(): string;
}

/** What an action gets: the loader's context plus the request's logger. */
export interface ActionContext extends LoaderContext {
  log: Logger;
}

/**
 * An action's answer: a redirect (303 for PRG), or the page again with a
 * status. `data` is the JSON answer to a post with the data marker (the
 * island's), e.g. field → message for a 422. A redirect that stored nothing names its
 * `outcome` for the metrics (e.g. `honeypot`).
 */
export type ActionResult<P> = { redirect: string; outcome?: FormOutcome } | { status: number; props: P; data?: unknown };

/**
 * One page of the route table: its declaration (path, kind, islands — see
 * `protocol/routes.json`) and how it is served.
 */
export interface PageRoute<P extends object = Record<string, never>> extends RouteDeclaration {
  /** Page title without the site suffix, or a function of the view's props. */
  title: string | ((props: P) => string);
  /**
   * What the page offers, in one or two Dutch sentences written for people: the page's
   * `<meta name="description">`, Open Graph description and page data (docs/pages.md §8).
   */
  description: string;
  /**
   * Why the page must not be indexed, e.g. that it shows a person's data: it then carries
   * `noindex` (meta and `X-Robots-Tag`) and is left out of the sitemap (docs/pages.md §9).
   */
  noindex?: string;
  /** The build image (a `useBuildImage` name) that stands for the page when shared, with its alternative text: its `og:image`. */
  shareImage?: { name: string; alt: string };
  /** Loads the view's props; throw an `HttpError` for 4xx/5xx. Only for `ssr`. */
  loader?: (ctx: LoaderContext) => P | Promise<P>;
  /** The content of `<main>`. */
  View: ComponentType<P>;
  /**
   * Why the route's renders are never kept in the render cache (docs/streaming.md §6), e.g. that
   * it shows a person's data; absent: cached whenever its props are settled.
   */
  noRenderCache?: string;
  /** POST handler, run after body parsing and the cross-site protection. */
  action?: (ctx: ActionContext) => Promise<ActionResult<P>>;
  /** Answers a same-origin POST whose CSRF token has expired (else the 403 error page). */
  onTokenExpired?: (ctx: ActionContext) => Promise<ActionResult<P>>;
  /** Posts allowed per client address and window (docs/forms.md §7). */
  rateLimit?: RateLimit;
  /** The name of the form the route posts (its rate-limit counter and the `form` of its log events; see `formRoute`). */
  form?: string;
  /**
   * Parameters whose values grant access to personal data (e.g. the id of a confirmation):
   * masked wherever the path is logged (see `personalPathMask`).
   */
  secretParams?: readonly string[];
}

/** A route of any props type, as the router stores them. */
export type AnyPageRoute = PageRoute<any>;

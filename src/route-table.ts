/**
 * The shape of the route table (docs/pages.md §1). Shared by the router (src/routes/), the page
 * modules and the form layer (src/forms/), which builds a route's POST chain; no runtime code.
 */
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import type { ComponentType } from 'react';
import type { CsrfTokens, RateLimits } from './filter/types.js';
import type { Metrics } from './metrics/index.js';
import type { RouteDeclaration } from '../protocol/routes.js';

/** What a loader gets. */
export interface LoaderContext {
  req: Request;
  /** The CSRF token for a form on the page (sets its cookies on first call). */
  csrfToken(): string;
  /** A fresh submission key for the form on the page: a random UUID (docs/forms.md §7). */
  submissionKey(): string;
}

/**
 * What a route's POST chain is built with (docs/forms.md §3): the app's shared parts, handed over
 * by the page router when it mounts the route.
 */
export interface PostKit {
  /** Renders the route's page with a status and the view's props (a form shown again). */
  renderPage(req: Request, res: Response, status: number, props: object, next: NextFunction): void;
  /** The cross-site protection (token and origin checks). */
  csrf: CsrfTokens;
  /** The per-client limits of posts. */
  limits: RateLimits;
  /** Counts form posts by outcome. */
  metrics: Metrics;
}

/**
 * One page of the route table: its declaration (path, kind, islands — see
 * `protocol/routes.json`) and how it is served.
 */
export interface PageRoute<P extends object = Record<string, never>> extends RouteDeclaration {
  /** Page title without the site suffix (docs/pages.md §3), e.g. `Aanmelden`. */
  title: string;
  /**
   * Whether the view's props show a failure, e.g. a form's errors or its expired-session notice:
   * the title then begins with "Fout: " (docs/forms.md §4). Absent: never.
   */
  failing?: (props: P) => boolean;
  /**
   * The text of the page's `<h1>` where it is not the title, e.g. the start page's welcome
   * (docs/pages.md §3). Absent: the `<h1>` is the title (a page with a parameter may add to it, as
   * the confirmation adds the name). The view writes the heading; the page tests hold it to this.
   */
  heading?: string;
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
  /**
   * The route's POST chain, from the rate limit to the answer (a form route's: src/forms/post.ts);
   * absent: POST is a 405.
   */
  post?: (kit: PostKit) => Array<RequestHandler | ErrorRequestHandler>;
  /**
   * Parameters whose values grant access to personal data (e.g. the id of a confirmation):
   * masked wherever the path is logged (see `personalPathMask`).
   */
  secretParams?: readonly string[];
}

/** A route of any props type, as the router stores them. */
export type AnyPageRoute = PageRoute<any>;

/**
 * The shape of the route table (product.md §1). Shared by the router and the
 * page modules; no runtime code.
 */
import type { Request, RequestHandler } from 'express';
import type { ComponentType, ReactNode } from 'react';

/** `ssr` pages run a loader per request; `static` pages have none (product.md §1). */
export type RouteKind = 'ssr' | 'static';

/** What a loader gets: the request (params, query) — never the response. */
export interface LoaderContext {
  req: Request;
}

/** One page of the route table. */
export interface PageRoute<P extends object = Record<string, never>> {
  /** Express path pattern, case-sensitive, e.g. `/over`. */
  path: string;
  kind: RouteKind;
  /** Page title without the site suffix, or a function of the loader's props. */
  title: string | ((props: P) => string);
  /** Loads the view's props; throw an `HttpError` for 4xx/5xx. Only for `ssr`. */
  loader?: (ctx: LoaderContext) => P | Promise<P>;
  /** The content of `<main>`. */
  View: ComponentType<P>;
  /** Extra `<head>` elements, e.g. `noindex`. */
  head?: ReactNode;
  /** POST handler, run after body parsing and the cross-site protection. */
  action?: RequestHandler;
}

/** A route of any props type, as the router stores them. */
export type AnyPageRoute = PageRoute<any>;

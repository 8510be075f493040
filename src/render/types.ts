/**
 * What the page renderer and the render cache around it take and give (docs/streaming.md,
 * docs/navigation.md §1); types only.
 */
import type { Request, Response } from 'express';
import type { ReactNode } from 'react';
import type { RouteKind } from '../../protocol/routes.js';
import type { PageMeta } from './page-meta.js';

/** What one page render needs. */
export interface RenderRequest {
  /** HTTP status, decided before rendering. */
  status: number;
  /** Full `<title>`. */
  title: string;
  /** Content of `<main>`. */
  content: ReactNode;
  /** `Cache-Control` of the response (docs/pages.md §2). */
  cacheControl: string;
  /** Description, robots and share image (docs/pages.md §8–§9). */
  meta: PageMeta;
  /** Islands the page may render (its route's declaration); their scripts are loaded. */
  islands: readonly string[];
  /** The view's props, sent in page data (promises are awaited first). */
  props: object;
  /** The route's kind, for page data; from the manifest when absent. */
  kind?: RouteKind;
  /**
   * Given when the render may be served from the render cache: its props are all settled and
   * hold placeholders where they took values from the request. `fresh()` gives the same page
   * with this response's own values, which the verify guard renders to compare.
   */
  cacheable?: { fresh(): RenderRequest };
  /** Called instead of sending when the shell itself fails. */
  onShellError(error: unknown): void;
}

/** Renders one page into a response (the page renderer, wrapped by the render cache). */
export type Render = ((req: Request, res: Response, page: RenderRequest) => void) & {
  /** Whether renders are cached: a loader then gives placeholders for the request's values. */
  readonly caching: boolean;
  /**
   * The fast path's hit (src/fast-path.ts): when the cache holds this version of the page, counts
   * a hit (and sets `res.locals.render`) as the router's is, and hands `send` the body: the
   * template filled with `at.values`, or with the verify guard a fresh render compared with it,
   * exactly as on the Express path. Nothing happens when it does not hold it, or the props have
   * no key.
   * @param req the request through Express's getters
   * @param res the response, its state in `res.locals` (the page head, the route)
   * @returns whether it was a hit (then `send` is called, at once or after the fresh render)
   */
  readonly hit: (req: Request, res: Response, page: RenderRequest, at: HitRequest, send: (body: string) => void) => boolean;
};

/**
 * Extra `<head>` elements of every page (development: the reload client, src/dev/steps.tsx). A
 * cached render holds them, so what they show is part of its key (docs/streaming.md §6).
 */
export interface PageHead {
  /** Everything the elements depend on but the nonce: part of the render cache's key. */
  readonly key: string;
  /** The elements, with this response's nonce (or its placeholder) on each script. */
  render(nonce: string): ReactNode;
}

/** Where the fast path asks the render cache for a page, and with which values it fills it. */
export interface HitRequest {
  /** The route pattern, e.g. `/`. */
  route: string;
  /** The canonical path. */
  path: string;
  mode: Mode;
  values: RequestValues;
}

/** How a page is sent: streamed HTML, the whole document at once (bots, text browsers), or page data. */
export type Mode = 'stream' | 'whole' | 'data';

/** The per-request values a render carries besides its props (or their placeholders). */
export interface RequestValues {
  nonce: string;
  requestId: string;
}

/**
 * Receives a page rendered into a string: the HTML, or the page-data JSON with the range its HTML
 * takes; `complete` is false for a render that was aborted or partly failed.
 */
export type TextSink = (text: string, htmlRange: [number, number] | undefined, complete: boolean) => void;

/** The page renderer: a page into its response, or into a string. */
export interface PageRenderer {
  /**
   * Renders a page with these values: into the response as it comes (no `into`), or into a
   * string handed to `into` (the render cache's miss and its verify guard).
   */
  render(req: Request, res: Response, page: RenderRequest, mode: Mode, values: RequestValues, into?: TextSink): void;
  /** Sends a page rendered into a string, with the head a rendered page gets; nothing once the client has gone. */
  send(res: Response, page: RenderRequest, mode: Mode, body: string): void;
}


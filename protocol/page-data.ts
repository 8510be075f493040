/**
 * The page-data protocol (docs/navigation.md §1), shared by server, router and islands.
 */
import type { ScriptRef } from './manifest.js';
import type { RouteKind } from './routes.js';

/** Request and response header that marks page data (and the island's form posts). */
export const DATA_HEADER = 'X-Eiland-Data';

/** The value of {@link DATA_HEADER} that marks a request for page data and its answer: `X-Eiland-Data: 1`. */
export const DATA_MARKER = '1';

/** Event an island dispatches (cancelable) to hand a followed response to the router. */
export const NAVIGATE_EVENT = 'eiland:navigate';

/** The detail of a {@link NAVIGATE_EVENT}. */
export interface NavigateDetail {
  /** A response to a request sent with the data marker, e.g. a followed 303. */
  response: Response;
}

/** The answer to `GET <page> X-Eiland-Data: 1` (docs/navigation.md §1). */
export interface PageData {
  buildId: string;
  /** The route pattern that answered, or null (e.g. an unknown path). */
  route: string | null;
  kind: RouteKind;
  status: number;
  title: string;
  /** The page's `<meta name="description">`, or null when it has none (error pages). */
  description: string | null;
  props: Record<string, unknown>;
  /** The complete rendered content of `<main>`. */
  html: string;
  islands: Array<ScriptRef & { name: string }>;
  assets: string[];
}

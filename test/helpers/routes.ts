/**
 * The site's pages as the tests list them, derived from the route table (protocol/routes.json,
 * docs/pages.md §1), never written again: a new page is in every list it belongs to.
 */
import { ROUTES, type RouteDeclaration, type RouteKind } from '../../protocol/routes.js';

/** The routes a GET reaches without a post or a secret: those without a parameter. */
const PLAIN: readonly RouteDeclaration[] = ROUTES.filter((route) => !route.path.includes(':'));

/** Every page path a GET reaches without a post, e.g. `/`, `/over`, `/aanmelden/bedankt`. */
export const PAGE_PATHS: readonly string[] = PLAIN.map((route) => route.path);

/** The page paths that render no island (the router is all their JavaScript). */
export const PAGES_WITHOUT_ISLANDS: readonly string[] = PLAIN.filter((route) => route.islands.length === 0).map((route) => route.path);

/**
 * The page paths of one kind (docs/pages.md §2).
 * @param kind `static` (no loader) or `ssr`
 */
export function pagesOfKind(kind: RouteKind): string[] {
  return PLAIN.filter((route) => route.kind === kind).map((route) => route.path);
}

/**
 * The site's pages as the tests list them, derived from the route table (protocol/routes.json and
 * the page routes of src/routes/, docs/pages.md §1), never written again: a new page is in every
 * list it belongs to, with its title, heading and place in the menus.
 */
import { menus, ROUTES, type RouteDeclaration, type RouteKind } from '../../protocol/routes.js';
import { FORMS } from '../../src/forms/index.js';
import { siteRoutes } from '../../src/routes/pages.js';
import { TITLE_SUFFIX } from '../../src/routes/router.js';
import type { AnyPageRoute } from '../../src/route-table.js';

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

/**
 * Every page route as the server serves it, loaders unrun: what the tests read of it (titles,
 * headings, descriptions, noindex, posts) needs no storage.
 */
export const PAGE_ROUTES: readonly AnyPageRoute[] = siteRoutes(undefined as never, { limit: 1, windowMs: 1000 }, 365, FORMS);

/** What a page shows of itself, as its route declares it. */
export interface PageFacts {
  path: string;
  kind: RouteKind;
  islands: readonly string[];
  /** The whole `<title>` as the page is first shown, e.g. `Aanmelden · Eiland`. */
  title: string;
  /** The text of its `<h1>`. */
  heading: string;
  description: string;
  /** Whether it asks not to be indexed (docs/pages.md §9). */
  noindex: boolean;
  /** Its label in the site navigation (the `main` menu), or null when it has none there. */
  navigation: string | null;
}

/** The facts of a route (docs/pages.md §3). */
function factsOf(route: AnyPageRoute): PageFacts {
  return {
    path: route.path,
    kind: route.kind,
    islands: route.islands,
    title: route.title + TITLE_SUFFIX,
    heading: route.heading ?? route.title,
    description: route.description,
    noindex: route.noindex !== undefined,
    navigation: route.menu?.name === 'main' ? route.menu.label : null,
  };
}

/** Every page of {@link PAGE_PATHS}, in the table's order, with what it shows of itself. */
export const PAGES: readonly PageFacts[] = PAGE_PATHS.map((path) => {
  const route = PAGE_ROUTES.find((r) => r.path === path);
  if (!route) throw new RangeError(`protocol/routes.json declares "${path}", which no page route of src/routes/ serves`);
  return factsOf(route);
});

/**
 * The facts of one page path.
 * @param path a path of {@link PAGE_PATHS}, e.g. `/over`
 * @throws RangeError when it is not one
 */
export function page(path: string): PageFacts {
  const found = PAGES.find((p) => p.path === path);
  if (!found) throw new RangeError(`"${path}" is not a page without parameters of the route table`);
  return found;
}

/** The labels of each menu, in order (docs/pages.md §3): the navigation's and the footer's links. */
export const MENU_LABELS = {
  main: menus().main.map((link) => link.label),
  footer: menus().footer.map((link) => link.label),
} as const;

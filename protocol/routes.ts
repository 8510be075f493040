/**
 * The declared routes (docs/pages.md §1, docs/islands.md §3): path, kind, the islands each page
 * renders and its place in the site's menus (docs/pages.md §3). `protocol/routes.json` is read by
 * the build too (build/manifest.mjs), so the build manifest knows every route's assets.
 */
import table from './routes.json' with { type: 'json' };

/** `ssr` pages run a loader per request; `static` pages have none (docs/pages.md §2). */
export type RouteKind = 'ssr' | 'static';

/** The site's menus (docs/pages.md §3): `main` is the header's navigation, `footer` the footer's links. */
export const MENUS = ['main', 'footer'] as const;

/** The name of one of the {@link MENUS}. */
export type MenuName = (typeof MENUS)[number];

/** A route's link in one of the site's menus. */
export interface MenuEntry {
  name: MenuName;
  /** Its place in that menu, counted from 1: a menu is ordered by this, not by the table. */
  order: number;
  /** The link's text, shown as it is. */
  label: string;
}

/** A declared route. */
export interface RouteDeclaration {
  /** Express path pattern, e.g. `/aanmeldingen/:id`. */
  path: string;
  kind: RouteKind;
  /** Names of the islands the page renders (files in `islands/`). */
  islands: string[];
  /** Where the page is linked from every page; absent: in no menu. */
  menu?: MenuEntry;
}

/** Every declared route. */
export const ROUTES: readonly RouteDeclaration[] = table as RouteDeclaration[];

/**
 * The declaration of a path pattern.
 * @param path a pattern of `routes.json`, e.g. `/over`
 * @throws RangeError when the path is not declared there
 */
export function declared(path: string): RouteDeclaration {
  const route = ROUTES.find((r) => r.path === path);
  if (!route) throw new RangeError(`Route "${path}" is not declared in protocol/routes.json`);
  return route;
}

/** One link of a menu. */
export interface MenuLink {
  href: string;
  label: string;
}

/**
 * Each menu's links, in their order, from the routes that declare a place in it.
 * @param routes the declared routes; by default those of `routes.json`
 * @throws TypeError when a route names another menu, or has a parameter (a menu links one fixed path)
 * @throws RangeError when two routes take the same place in one menu
 * @example menus().main // [{ href: '/', label: 'Start' }, …]
 */
export function menus(routes: readonly RouteDeclaration[] = ROUTES): Record<MenuName, MenuLink[]> {
  const placed = new Map<string, RouteDeclaration[]>(MENUS.map((name) => [name, []]));
  for (const route of routes) {
    if (!route.menu) continue;
    const { name, order } = route.menu;
    const list = placed.get(name);
    if (!list) throw new TypeError(`Route "${route.path}" names the menu "${name}", which is not one of ${MENUS.join(', ')}`);
    if (route.path.includes(':')) throw new TypeError(`Route "${route.path}" is in the menu "${name}" but has a parameter: a menu links a fixed path`);
    const taken = list.find((other) => other.menu?.order === order);
    if (taken) throw new RangeError(`Routes "${taken.path}" and "${route.path}" both take place ${order} in the menu "${name}"`);
    list.push(route);
  }
  const links = (name: MenuName): MenuLink[] =>
    placed
      .get(name)!
      .sort((a, b) => a.menu!.order - b.menu!.order)
      .map((route) => ({ href: route.path, label: route.menu!.label }));
  return Object.fromEntries(MENUS.map((name) => [name, links(name)])) as Record<MenuName, MenuLink[]>;
}

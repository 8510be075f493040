/**
 * The declared routes (docs/pages.md §1, docs/islands.md §3): path, kind and the islands each
 * page renders. `protocol/routes.json` is read by the build too (build/manifest.mjs), so the
 * build manifest knows every route's assets.
 */
import table from './routes.json' with { type: 'json' };

/** `ssr` pages run a loader per request; `static` pages have none (docs/pages.md §2). */
export type RouteKind = 'ssr' | 'static';

/** A declared route. */
export interface RouteDeclaration {
  /** Express path pattern, e.g. `/aanmeldingen/:id`. */
  path: string;
  kind: RouteKind;
  /** Names of the islands the page renders (files in `islands/`). */
  islands: string[];
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

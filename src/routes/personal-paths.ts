/**
 * Paths that grant access to personal data (README "Logs"): whoever has the URL of a
 * confirmation page can read that person's registration, so such a path is never logged whole.
 * A route names the parameters that are such a secret (`secretParams`); the request log and the
 * client-error reports write the path with those segments masked.
 */
import { compile, match } from 'path-to-regexp';

/** What a masked segment is replaced with. */
export const MASK = '[redacted]';

/** A route as far as masking goes: its pattern and its secret parameters. */
export interface MaskedRoute {
  /** Express path pattern, e.g. `/aanmeldingen/:id`. */
  path: string;
  /** Parameters whose values grant access to personal data, e.g. `['id']`. */
  secretParams?: readonly string[];
}

/**
 * Masks a canonical path; a path no secret route matches is returned as it is.
 * @example personalPathMask([{ path: '/aanmeldingen/:id', secretParams: ['id'] }])('/aanmeldingen/3f2b…') // '/aanmeldingen/[redacted]'
 */
export type PathMask = (path: string) => string;

/**
 * Builds the mask of a route table.
 * @param routes the routes; those without `secretParams` are ignored
 * @throws TypeError when a secret parameter is not a parameter of its route's pattern
 */
export function personalPathMask(routes: readonly MaskedRoute[]): PathMask {
  const masks = routes
    .filter((route) => route.secretParams !== undefined && route.secretParams.length > 0)
    .map((route) => {
      for (const name of route.secretParams!) {
        if (!route.path.includes(`:${name}`)) throw new TypeError(`Route "${route.path}" has no parameter "${name}" to mask`);
      }
      const hidden = Object.fromEntries(route.secretParams!.map((name) => [name, MASK]));
      return { matches: match(route.path, { decode: false }), build: compile(route.path, { encode: false }), hidden };
    });
  if (masks.length === 0) return (path) => path;
  return function maskPersonalPath(path) {
    for (const { matches, build, hidden } of masks) {
      const found = matches(path);
      if (found) return build({ ...(found.params as Record<string, string>), ...hidden });
    }
    return path;
  };
}

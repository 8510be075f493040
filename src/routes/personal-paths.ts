/**
 * Paths that grant access to personal data (docs/operations.md §2): whoever has the URL of a
 * confirmation page can read that person's registration, so such a path is never logged whole.
 * A route names the parameters that are such a secret (`secretParams`); the request log and the
 * client-error reports write every path below the route's fixed part with the secret, and
 * everything after it, masked: however the path is spelled (case, doubled or back slashes,
 * percent-escapes, dot segments) and whatever follows it, and wherever it stands in a text.
 */
import type { PathMask } from '../logging.js';

/** What a masked segment is replaced with. */
export const MASK = '[redacted]';

/** A route as far as masking goes: its pattern and its secret parameters. */
interface MaskedRoute {
  /** Express path pattern, e.g. `/aanmeldingen/:id`. */
  path: string;
  /** Parameters whose values grant access to personal data, e.g. `['id']`. */
  secretParams?: readonly string[];
}


/** A path separator as a browser or a server may read it: `/` or `\`, raw or percent-escaped. */
const SEPARATOR = '(?:[/\\\\]|%2[fF]|%5[cC])';

/** One literal character of a path as it may be written (the pattern ignores case): itself, or percent-escaped. */
function spellings(char: string): string {
  const hex = char.charCodeAt(0).toString(16).padStart(2, '0');
  return `(?:${char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}|%${hex})`;
}

/**
 * The fixed segments of a secret route before its first secret, e.g. `['aanmeldingen']`.
 * @throws TypeError when a secret is not a parameter of the pattern, or a segment before it is
 *   not fixed text (the mask could not tell where the secret starts)
 */
function fixedPrefix(route: MaskedRoute): string[] {
  const segments = route.path.split('/').slice(1);
  for (const name of route.secretParams!) {
    if (!segments.includes(`:${name}`)) throw new TypeError(`Route "${route.path}" has no parameter "${name}" to mask`);
  }
  const first = segments.findIndex((segment) => route.secretParams!.some((name) => segment === `:${name}`));
  const prefix = segments.slice(0, first);
  const loose = prefix.find((segment) => !/^[A-Za-z0-9._~-]+$/.test(segment));
  if (loose !== undefined) throw new TypeError(`Route "${route.path}" has "${loose}" before its secret: only fixed segments can stand there`);
  return prefix;
}

/**
 * Builds the mask of a route table.
 * @param routes the routes; those without `secretParams` are ignored
 * @throws TypeError as {@link fixedPrefix} does
 */
export function personalPathMask(routes: readonly MaskedRoute[]): PathMask {
  const masks = routes
    .filter((route) => route.secretParams !== undefined && route.secretParams.length > 0)
    .map((route) => {
      const prefix = fixedPrefix(route);
      // The fixed part, then a separator and anything up to white space, a quote or a bracket
      // (where a path ends inside a text), a query or a fragment.
      const pattern = `${prefix.map((segment) => `${SEPARATOR}+${[...segment].map(spellings).join('')}`).join('')}${SEPARATOR}+[^\\s"'<>()[\\]{}?#]+`;
      return { pattern: new RegExp(pattern, 'gi'), masked: `/${[...prefix, MASK].join('/')}` };
    });
  if (masks.length === 0) return (text) => text;
  return function maskPersonalPath(text) {
    let out = text;
    for (const { pattern, masked } of masks) out = out.replace(pattern, masked);
    return out;
  };
}

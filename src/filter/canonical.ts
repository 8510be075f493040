/**
 * Canonical request paths (docs/pages.md §5). A pure module: the matcher and
 * the 308 redirect both use it, so the filter judges exactly the path the
 * router will see.
 */

/** A request target after parsing: malformed, or a path with its canonical form. */
export type Target =
  | { kind: 'malformed' }
  | { kind: 'path'; /** as received */ path: string; /** canonical form */ canonical: string; /** `?…` or '' */ search: string };

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
// RFC 3986 pchar plus '/': anything else (e.g. '\', '"', non-ASCII) is percent-encoded.
const ALLOWED_RAW = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]$/;

/** A path that every step below would leave as it is: `/`, or `/seg/seg` of `[A-Za-z0-9_~-]` and inner dots. */
const CANONICAL = /^\/$|^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+$/;

function encodeChar(c: string): string {
  const code = c.charCodeAt(0);
  // Node hands the request line over as latin1: one char per byte.
  return code <= 0xff ? `%${code.toString(16).toUpperCase().padStart(2, '0')}` : encodeURIComponent(c);
}

/** Decodes percent-encoded unreserved characters, upper-cases other escapes, encodes unsafe raw characters. */
function normaliseEncoding(path: string): string {
  return path.replace(/%([0-9A-Fa-f]{2})|[^]/g, (m, hex: string | undefined) => {
    if (hex !== undefined) {
      const c = String.fromCharCode(parseInt(hex, 16));
      return UNRESERVED.test(c) ? c : `%${hex.toUpperCase()}`;
    }
    return ALLOWED_RAW.test(m) ? m : encodeChar(m);
  });
}

/** Drops empty and `.` segments, resolves `..` (never above the root), drops the trailing slash. */
function normaliseSegments(path: string): string {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return `/${out.join('/')}`;
}

function isMalformed(path: string): boolean {
  if (/%(?![0-9A-Fa-f]{2})/.test(path)) return true;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true; // e.g. %C0: an escape that is not UTF-8
  }
}

/**
 * Parses a request target (`req.url`) into its path and canonical path.
 * Absolute-form targets (`http://host/p`) keep only their path, so a redirect
 * never leaves this origin; the canonical form never starts with `//` or `/\`.
 * @param url the raw request target, e.g. `/over?x=1`, `//evil.example`, `http://a/b`
 * @returns `malformed` for bad percent-encoding or a target that is not a path,
 *   else the path, its canonical form and the raw query (`?…` or '')
 */
export function parseTarget(url: string): Target {
  const q = url.indexOf('?');
  const raw = q === -1 ? url : url.slice(0, q);
  const search = q === -1 ? '' : url.slice(q);
  let path = raw;
  if (!raw.startsWith('/')) {
    // Absolute-form (RFC 9112 §3.2.2): its path alone matters, and it is not canonical.
    if (!/^https?:\/\//i.test(url)) return { kind: 'malformed' };
    path = raw.replace(/^https?:\/\/[^/]*/i, '');
  }
  // Most paths are already canonical: segments of unreserved characters other than `.`, no
  // escapes, no empty segment, no trailing slash. They need no decoding.
  if (CANONICAL.test(path)) return { kind: 'path', path: raw, canonical: path, search };
  if (isMalformed(path)) return { kind: 'malformed' };
  return { kind: 'path', path: raw, canonical: normaliseSegments(normaliseEncoding(path)), search };
}

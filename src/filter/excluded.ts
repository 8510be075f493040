/**
 * The paths outside the request filter (docs/filter.md §1), declared once: the matcher routes
 * them to their handlers, the access log writes them at `debug` (docs/operations.md §2), and `createApp` must
 * give each one a handler (its type requires a key per entry).
 */
import { IMAGE_PATH } from '../../protocol/image-config.js';

/** Each excluded path: a prefix (everything under it) or one exact path; case-sensitive. */
const EXCLUDED_PATHS = {
  /** Build output and public files. */
  assets: { prefix: '/assets/' },
  /** The image optimizer (docs/images.md §4). */
  image: { exact: IMAGE_PATH },
  favicon: { exact: '/favicon.ico' },
} as const satisfies Record<string, { prefix: string } | { exact: string }>;

/** The name of an excluded path: `assets`, `image` or `favicon`. */
export type ExcludedPath = keyof typeof EXCLUDED_PATHS;

const ENTRIES = Object.entries(EXCLUDED_PATHS) as [ExcludedPath, { prefix: string } | { exact: string }][];

/**
 * Which excluded path a canonical path is, if any. Exact, not prefix tricks:
 * `/favicon.icox`, `/assetsx/a.js`, `/_imagex`, `/Favicon.ico` are filtered.
 * @param canonicalPath a path in canonical form (see `parseTarget`)
 * @returns the entry's name, or undefined for a filtered path
 */
export function excludedPath(canonicalPath: string): ExcludedPath | undefined {
  for (const [name, rule] of ENTRIES) {
    if ('prefix' in rule ? canonicalPath.startsWith(rule.prefix) : canonicalPath === rule.exact) return name;
  }
  return undefined;
}

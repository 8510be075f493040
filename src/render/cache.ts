/**
 * The render cache (docs/streaming.md §6): rendered pages with holes, kept in a least-recently-used
 * map bounded in bytes. A page (route, path and how it is sent) is kept in one version at a time:
 * the version is everything else its output depends on (build, status, title, props), so a new
 * version replaces the old one instead of waiting for eviction, nothing is ever invalidated, and
 * every instance computes the same key.
 */
import { LRUCache } from 'lru-cache';
import { stringBytes, type Template } from './holes.js';

/** How a render was served, as the request's log line says (`render`, docs/operations.md §2). */
export type RenderCacheResult = 'hit' | 'miss' | 'bypass';

/** A render's key: the page it is, and the version of that page. */
export interface RenderKey {
  page: string;
  version: string;
}

/** The render cache of one process. */
export interface RenderCache {
  /** False when `RENDER_CACHE_MAX_BYTES` is 0: every render is a bypass. */
  readonly enabled: boolean;
  /** Whether every hit is compared with a fresh render (`RENDER_CACHE_VERIFY=1`). */
  readonly verify: boolean;
  /** The template of this version of the page, when it is the version kept. */
  get(key: RenderKey): Template | undefined;
  /** Keeps a page's template in place of any other version of it. */
  set(key: RenderKey, template: Template): void;
  /** What it holds now: entries, and the bytes they cost (counted as the bound counts them). */
  size(): { entries: number; bytes: number };
}

/** Options of {@link createRenderCache}. */
interface RenderCacheOptions {
  /** The bound of keys and templates together, in bytes; 0 turns the cache off. */
  maxBytes: number;
  verify: boolean;
}

/**
 * The parts of a render's key, in a fixed order.
 * @param parts route pattern, path, mode; build id, status, title, the key of the page's extra head
 *   elements (`PageHead`, none in production) and the props as JSON
 */
export function renderKey(parts: { route: string; path: string; buildId: string; mode: 'stream' | 'whole' | 'data'; status: number; title: string; head?: string; props: string }): RenderKey {
  return { page: `${parts.route}\n${parts.path}\n${parts.mode}`, version: `${parts.buildId}\n${parts.status}\n${parts.title}\n${parts.head ?? ''}\n${parts.props}` };
}

/**
 * What an entry costs besides its strings: the map's slot and the LRU's lists, the entry, the
 * template and its arrays (measured with test/render-cache-memory.test.ts).
 */
const ENTRY_OVERHEAD_BYTES = 600;

/** A kept version of a page. */
interface Entry {
  version: string;
  template: Template;
}

/**
 * Creates a render cache.
 * @throws RangeError when `maxBytes` is negative or not a whole number
 */
export function createRenderCache({ maxBytes, verify }: RenderCacheOptions): RenderCache {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new RangeError(`The render cache's bound must be a whole number of bytes, got ${maxBytes}`);
  if (maxBytes === 0) return { enabled: false, verify, get: () => undefined, set: () => {}, size: () => ({ entries: 0, bytes: 0 }) };
  const lru = new LRUCache<string, Entry>({
    maxSize: maxBytes,
    // A template larger than the whole bound is not kept (lru-cache skips it).
    sizeCalculation: (entry, page) => entry.template.bytes + stringBytes(page) + stringBytes(entry.version) + ENTRY_OVERHEAD_BYTES,
  });
  return {
    enabled: true,
    verify,
    get: ({ page, version }) => {
      const entry = lru.get(page);
      return entry?.version === version ? entry.template : undefined;
    },
    set: ({ page, version }, template) => void lru.set(page, { version, template }),
    size: () => ({ entries: lru.size, bytes: lru.calculatedSize }),
  };
}

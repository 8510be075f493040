/**
 * The render cache (docs/streaming.md §6): rendered pages with holes, kept in a least-recently-used
 * map bounded in bytes. The key is everything the output depends on, so nothing is ever
 * invalidated: new data gives a new key, and every instance computes the same one.
 */
import { LRUCache } from 'lru-cache';
import type { Template } from './holes.js';

/** How a render was served, as the request's log line says (`render`, docs/operations.md §2). */
export type RenderCacheResult = 'hit' | 'miss' | 'bypass';

/** The render cache of one process. */
export interface RenderCache {
  /** False when `RENDER_CACHE_MAX_BYTES` is 0: every render is a bypass. */
  readonly enabled: boolean;
  /** Whether every hit is compared with a fresh render (`RENDER_CACHE_VERIFY=1`). */
  readonly verify: boolean;
  get(key: string): Template | undefined;
  set(key: string, template: Template): void;
}

/** Options of {@link createRenderCache}. */
export interface RenderCacheOptions {
  /** The bound of keys and templates together, in bytes; 0 turns the cache off. */
  maxBytes: number;
  verify: boolean;
}

/**
 * The parts of a render's key, in a fixed order.
 * @param parts route pattern, path, build id, mode, status, title and the props as JSON
 */
export function renderKey(parts: { route: string; path: string; buildId: string; mode: 'stream' | 'whole' | 'data'; status: number; title: string; props: string }): string {
  return `${parts.route}\n${parts.path}\n${parts.buildId}\n${parts.mode}\n${parts.status}\n${parts.title}\n${parts.props}`;
}

/**
 * Creates a render cache.
 * @throws RangeError when `maxBytes` is negative or not a whole number
 */
export function createRenderCache({ maxBytes, verify }: RenderCacheOptions): RenderCache {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new RangeError(`The render cache's bound must be a whole number of bytes, got ${maxBytes}`);
  if (maxBytes === 0) return { enabled: false, verify, get: () => undefined, set: () => {} };
  const lru = new LRUCache<string, Template>({
    maxSize: maxBytes,
    // A template larger than the whole bound is not kept (lru-cache skips it).
    sizeCalculation: (template, key) => template.bytes + 2 * key.length,
  });
  return { enabled: true, verify, get: (key) => lru.get(key), set: (key, template) => void lru.set(key, template) };
}

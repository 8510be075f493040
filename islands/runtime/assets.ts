/**
 * A page's stylesheets and island modules, loaded by the router on demand (docs/navigation.md §3)
 * and as the page's first paint allows (docs/islands.md §3).
 * Browser code only.
 */
import type { ClientManifest } from '../../protocol/manifest.js';
import type { PageData } from '../../protocol/page-data.js';
import { RouteFailure, timed } from './failure.js';

/**
 * Appends a `<link>` to the head (docs/navigation.md §3, §6).
 * @param link its properties: `rel` and `href`, and `onload`/`onerror` to hear how it settles
 */
export function addLink(link: Partial<Pick<HTMLLinkElement, 'rel' | 'href' | 'onload' | 'onerror'>>): void {
  document.head.append(Object.assign(document.createElement('link'), link));
}

/** A `<link>` in the head, settled by its load or error event: a stylesheet, or a module preload. */
function linked(rel: 'stylesheet' | 'modulepreload', href: string): Promise<unknown> {
  return new Promise((resolve, reject) => addLink({ rel, href, onload: resolve, onerror: reject }));
}

/**
 * Loads a page's styles and island modules, all within 3800 ms (docs/navigation.md §3). The
 * island runtime is run (it holds no React); the islands' chunks and what they import are fetched
 * and compiled but not run, as after a first paint: React runs at each island's trigger
 * (docs/islands.md §2–§3).
 * @param data the page data, for its assets and islands
 * @param m the build manifest, for the island runtime's URL
 * @returns settles once every stylesheet and module has loaded
 * @throws RouteFailure (rejects) when one fails to load, or not all have within 3800 ms (then
 *   `Route did not complete loading` is written to `console.error`)
 */
export function loadAssets(data: PageData, m: ClientManifest): Promise<unknown> {
  const present = new Set([...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((l) => l.getAttribute('href')));
  const styles = data.assets.filter((a) => a.endsWith('.css') && !present.has(a)).map((a) => linked('stylesheet', a));
  const islands = data.islands.length === 0 ? [] : [import(m.runtime.file), ...data.assets.filter((a) => a.endsWith('.js') && a !== m.runtime.file).map((a) => linked('modulepreload', a))];
  return timed(
    (signal) =>
      new Promise((resolve, reject) => {
        signal.addEventListener('abort', () => reject(new RouteFailure()));
        Promise.all([...styles, ...islands]).then(resolve, reject);
      }),
    true,
  );
}

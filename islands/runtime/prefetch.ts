/**
 * Prefetching (docs/navigation.md §6): a link's route assets, and a `static` route's page data,
 * loaded on hover, focus or touch, or on entering the viewport where the link asks for it; each
 * URL once per page life. Prefetch errors are silent.
 * Browser code only.
 */
import { BOT_ATTRIBUTE } from '../../protocol/meta.js';
import { PREFETCH_ATTRIBUTE, PREFETCH_VIEWPORT } from '../../protocol/navigation.js';
import { addLink } from './assets.js';
import { RouteFailure } from './failure.js';
import { linkOf, routable } from './links.js';
import { loadManifest, routeOf } from './manifest.js';
import { fetchPageData, type Loaded } from './page-data.js';
import { pageKey, shows } from './show.js';

/** The keys of the pages prefetched in this page life. */
const prefetched = new Set<string>();
/** Page data of `static` routes with status 200, prefetched, kept for the session. */
const staticData = new Map<string, Promise<Loaded>>();

/**
 * The page data a prefetch holds for a URL (docs/navigation.md §3, §6).
 * @param url the URL navigated to (its hash does not count)
 * @returns the page data (it may still be loading), or undefined when none is held
 */
export function prefetchedPage(url: URL): Promise<Loaded> | undefined {
  return staticData.get(pageKey(url));
}

function mayPrefetch(): boolean {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean; effectiveType?: string } }).connection;
  if (connection?.saveData || connection?.effectiveType?.includes('2g')) return false;
  // The server marks the documents it served to bots (it recognises them with isbot).
  return process.env.NODE_ENV === 'production' && !document.documentElement.hasAttribute(BOT_ATTRIBUTE);
}

function prefetch(link: HTMLAnchorElement): void {
  const url = routable(link);
  const key = url && pageKey(url);
  // Not the page already shown (its in-page anchors), and once per URL.
  if (!url || !key || shows(url) || prefetched.has(key) || !mayPrefetch()) return;
  prefetched.add(key);
  loadManifest()
    .then((m) => {
      const route = routeOf(m, url.pathname);
      for (const asset of route?.assets ?? []) {
        if (document.querySelector(`link[href="${asset}"], script[src="${asset}"]`)) continue;
        addLink({ rel: asset.endsWith('.js') ? 'modulepreload' : 'prefetch', href: asset });
      }
      if (route?.kind === 'static') {
        const loading = fetchPageData(url, m).then((loaded) => {
          if (loaded.data.status !== 200) throw new RouteFailure(); // only pages are kept
          return loaded;
        });
        staticData.set(key, loading);
        loading.catch(() => staticData.delete(key));
      }
    })
    .catch(() => undefined);
}

/**
 * Prefetches the link a `mouseover`, `focusin` or `touchstart` happened on, if any
 * (docs/navigation.md §6).
 */
export function prefetchOnIntent(event: Event): void {
  const link = linkOf(event);
  if (link) prefetch(link);
}

const viewport = new IntersectionObserver((entries) => entries.forEach((e) => e.isIntersecting && prefetch(e.target as HTMLAnchorElement)));

/**
 * Watches the page's links marked `data-prefetch="viewport"` and prefetches each as it enters the
 * viewport (docs/navigation.md §6); called for each page shown.
 */
export function observeViewportLinks(): void {
  document.querySelectorAll<HTMLAnchorElement>(`a[${PREFETCH_ATTRIBUTE}="${PREFETCH_VIEWPORT}"]`).forEach((link) => viewport.observe(link));
}

/**
 * The client router (docs/navigation.md): one small module on
 * every page, never React. It takes over same-origin link clicks and
 * back/forward, fetches page data with the marker header, loads the page's
 * assets on demand, swaps `<main>`, and prefetches links. Anything that fails
 * becomes a full-page navigation to the target; nothing loops.
 * Browser code only.
 */
import type { ClientManifest } from '../../protocol/manifest.js';
import { BOT_ATTRIBUTE, META } from '../../protocol/meta.js';
import { DATA_HEADER, NAVIGATE_EVENT, type NavigateDetail, type PageData } from '../../protocol/page-data.js';
import { reportClientError, showApplicationError } from './client-errors.js';
import type { scanIslands } from './islands.js';

/** Manifest, page data and assets each get at most this long (docs/navigation.md §3). */
const TIMEOUT_MS = 3800;
/** The exact message of a route that did not load in time (docs/navigation.md §3). */
const ROUTE_TIMEOUT = 'Route did not complete loading';

/** An expected failure: the answer is a full-page navigation (so it carries no message). */
class RouteFailure extends Error {}

type Loaded = { data: PageData; url: string };

let manifest: Promise<ClientManifest> | undefined;
/** Page data of static routes, prefetched once per session. */
const staticData = new Map<string, Promise<Loaded>>();
/** The path + query `<main>` currently shows. */
let shown = location.pathname + location.search;
let navigation = 0;

/** Runs `work` for at most 3800 ms; `report`: a time-out writes the route message. */
function timed<T>(work: (signal: AbortSignal) => Promise<T>, report = false): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  return work(controller.signal)
    .catch((error: unknown) => {
      if (controller.signal.aborted && report) console.error(ROUTE_TIMEOUT);
      throw error instanceof RouteFailure ? error : new RouteFailure();
    })
    .finally(() => clearTimeout(timer));
}

function loadManifest(): Promise<ClientManifest> {
  const url = document.querySelector(`meta[name="${META.manifest}"]`)?.getAttribute('content') ?? '';
  manifest ??= timed(async (signal) => {
    const res = await fetch(url, { signal });
    if (!res.ok) throw new RouteFailure();
    return (await res.json()) as ClientManifest;
  }, true).catch((error: unknown) => {
    manifest = undefined;
    throw error;
  });
  return manifest;
}

/** The manifest entry of a path: patterns like `/aanmeldingen/:id` match one segment per parameter. */
function routeOf(m: ClientManifest, path: string): ClientManifest['routes'][string] | undefined {
  const parts = path.split('/');
  const match = Object.keys(m.routes).find((pattern) => {
    const want = pattern.split('/');
    return want.length === parts.length && want.every((p, i) => (p.startsWith(':') ? parts[i] !== '' : p === parts[i]));
  });
  return match === undefined ? undefined : m.routes[match];
}

async function readPageData(res: Response, buildId: string): Promise<Loaded> {
  // Not page data, bad JSON, or another build: all a full load.
  if (res.headers.get(DATA_HEADER) !== '1') throw new RouteFailure();
  const data = (await res.json().catch(() => null)) as PageData | null;
  if (data?.buildId !== buildId || typeof data.html !== 'string') throw new RouteFailure();
  return { data, url: res.url };
}

/** Fetches page data: ssr routes 3 attempts in total while the answer is a 5xx, others 1. */
async function fetchPageData(url: URL, m: ClientManifest): Promise<Loaded> {
  const attempts = routeOf(m, url.pathname)?.kind === 'ssr' ? 3 : 1;
  for (let attempt = 1; ; attempt++) {
    const res = await timed((signal) => fetch(url.pathname + url.search, { headers: { [DATA_HEADER]: '1' }, signal, credentials: 'same-origin' }));
    if (res.status < 500) return readPageData(res, m.buildId);
    if (attempt >= attempts) throw new RouteFailure();
  }
}

/** A `<link>` in the head, settled by its load or error event: a stylesheet, or a module preload. */
function linked(rel: 'stylesheet' | 'modulepreload', href: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const link = Object.assign(document.createElement('link'), { rel, href, onload: resolve, onerror: reject });
    document.head.append(link);
  });
}

/**
 * Loads the page's styles and island modules, all within 3800 ms. The island runtime is run (it
 * holds no React); the islands' chunks and what they import are fetched and compiled but not run,
 * as after a first paint: React runs at each island's trigger (docs/islands.md §2–§3).
 */
function loadAssets(data: PageData, m: ClientManifest): Promise<unknown> {
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

/** The head's description follows the page shown (docs/navigation.md §1); error pages have none. */
function describe(description: string | null): void {
  document.querySelector('meta[name="description"]')?.remove();
  if (description !== null) document.querySelector('title')!.after(Object.assign(document.createElement('meta'), { name: 'description', content: description }));
}

function show({ data, url }: Loaded, target: URL, push: boolean, scroll?: [number, number]): void {
  const main = document.querySelector('main')!;
  main.innerHTML = data.html;
  document.title = data.title;
  describe(data.description);
  const next = new URL(url);
  next.hash = target.hash;
  if (push) history.pushState({ scroll: [0, 0] }, '', next);
  shown = location.pathname + location.search;
  for (const link of document.querySelectorAll<HTMLAnchorElement>('nav a')) {
    if (link.pathname === location.pathname) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  const anchor = target.hash ? document.getElementById(decodeURIComponent(target.hash.slice(1))) : null;
  if (scroll) scrollTo(scroll[0], scroll[1]);
  else if (anchor) anchor.scrollIntoView();
  else scrollTo(0, 0);
  const heading = main.querySelector('h1');
  if (heading) {
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }
  // The layout's aria-live region announces the new page.
  document.getElementById('aankondiging')!.textContent = data.title;
  observeViewportLinks();
  if (data.islands.length > 0) void loadManifest().then((m) => startIslands(m.runtime.file));
}

/** Runs one navigation; a newer one makes it give up quietly. */
async function navigate(target: URL, push: boolean, scroll?: [number, number], response?: Response): Promise<void> {
  const id = ++navigation;
  try {
    const m = await loadManifest();
    const key = target.pathname + target.search;
    const loaded = await (response ? readPageData(response, m.buildId) : (staticData.get(key) ?? fetchPageData(target, m)));
    if (id !== navigation) return;
    await loadAssets(loaded.data, m);
    if (id === navigation) show(loaded, target, push, scroll);
  } catch (error) {
    if (id !== navigation) return;
    if (error instanceof RouteFailure) location.assign(target.href);
    else fail(error);
  }
}

function saveScroll(): void {
  history.replaceState({ ...(history.state as object | null), scroll: [scrollX, scrollY] }, '');
}

/** A link the router may handle: same origin, http(s), no download, not data-reload. */
function routable(link: HTMLAnchorElement): URL | undefined {
  if (link.hasAttribute('download') || link.hasAttribute('data-reload')) return undefined;
  const url = new URL(link.href);
  return url.origin === location.origin ? url : undefined;
}

function onClick(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = (event.target as Element | null)?.closest?.<HTMLAnchorElement>('a[href]');
  if (!link || (link.target && link.target !== '_self')) return;
  const url = routable(link);
  // An in-page anchor (the skip link, the error summary) stays the browser's.
  if (!url || (url.pathname + url.search === shown && url.hash)) return;
  event.preventDefault();
  saveScroll();
  void navigate(url, url.href !== location.href);
}

// Prefetching (docs/navigation.md §6).
const prefetched = new Set<string>();

function mayPrefetch(): boolean {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean; effectiveType?: string } }).connection;
  if (connection?.saveData || connection?.effectiveType?.includes('2g')) return false;
  // The server marks the documents it served to bots (it recognises them with isbot).
  return process.env.NODE_ENV === 'production' && !document.documentElement.hasAttribute(BOT_ATTRIBUTE);
}

function prefetch(link: HTMLAnchorElement): void {
  const url = routable(link);
  const key = url && url.pathname + url.search;
  // Not the page already shown (its in-page anchors), and once per URL.
  if (!url || !key || key === shown || prefetched.has(key) || !mayPrefetch()) return;
  prefetched.add(key);
  loadManifest()
    .then((m) => {
      const route = routeOf(m, url.pathname);
      for (const asset of route?.assets ?? []) {
        if (document.querySelector(`link[href="${asset}"], script[src="${asset}"]`)) continue;
        const rel = asset.endsWith('.js') ? 'modulepreload' : 'prefetch';
        document.head.append(Object.assign(document.createElement('link'), { rel, href: asset }));
      }
      if (route?.kind === 'static') {
        const loading = fetchPageData(url, m).then((loaded) => {
          if (loaded.data.status !== 200) throw new RouteFailure(); // only pages are cached
          return loaded;
        });
        staticData.set(key, loading);
        loading.catch(() => staticData.delete(key));
      }
    })
    .catch(() => undefined); // prefetch errors are silent
}

function onIntent(event: Event): void {
  const link = (event.target as Element | null)?.closest?.<HTMLAnchorElement>('a[href]');
  if (link) prefetch(link);
}

const viewport = new IntersectionObserver((entries) => entries.forEach((e) => e.isIntersecting && prefetch(e.target as HTMLAnchorElement)));

function observeViewportLinks(): void {
  document.querySelectorAll<HTMLAnchorElement>('a[data-prefetch="viewport"]').forEach((link) => viewport.observe(link));
}

function fail(error: unknown): void {
  showApplicationError(document.querySelector('main')!);
  reportClientError(error);
}

function guarded<E extends Event>(handler: (event: E) => void): (event: E) => void {
  return (event) => {
    try {
      handler(event);
    } catch (error) {
      fail(error);
    }
  };
}

/** Imports the island runtime and has it schedule the page's islands, reporting with this module's client errors. */
async function startIslands(runtime: string): Promise<void> {
  const islands = (await import(runtime)) as { scanIslands: typeof scanIslands };
  islands.scanIslands({ report: reportClientError, show: showApplicationError });
}

/**
 * Loads the page's islands once it has loaded and painted (docs/islands.md §3): the modules the
 * island runtime needs are preloaded together, then the runtime is imported and hydrates the
 * islands. Until then nothing but the router competes with what the page's first paint waits
 * for. A hidden page (a background tab paints nothing) loads them when loaded. A module that
 * cannot be loaded is reported; the page goes on working without JavaScript.
 */
function loadIslandsAfterPaint(): void {
  const [runtime, ...needed] = document.querySelector(`meta[name="${META.afterPaint}"]`)?.getAttribute('content')?.split(' ').filter(Boolean) ?? [];
  if (!runtime) return;
  const load = () => {
    for (const href of needed) document.head.append(Object.assign(document.createElement('link'), { rel: 'modulepreload', href }));
    startIslands(runtime).catch((error: unknown) => reportClientError(error));
  };
  const afterPaint = () => {
    if (document.visibilityState === 'hidden') return load();
    if (!PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')) return requestAnimationFrame(() => setTimeout(load));
    // The paint as the browser reports it (its presentation, later than the frame's own task),
    // or a second at most.
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      observer.disconnect();
      clearTimeout(timer);
      setTimeout(load);
    };
    const observer = new PerformanceObserver(start);
    observer.observe({ type: 'largest-contentful-paint', buffered: true });
    const timer = setTimeout(start, 1000);
  };
  if (document.readyState === 'complete') afterPaint();
  else addEventListener('load', afterPaint, { once: true });
}

loadIslandsAfterPaint();
history.scrollRestoration = 'manual';
saveScroll();
let scrollTimer: ReturnType<typeof setTimeout> | undefined;
addEventListener('scroll', () => {
  clearTimeout(scrollTimer);
  scrollTimer = setTimeout(saveScroll, 100);
});
document.addEventListener('click', guarded(onClick));
addEventListener(
  'popstate',
  guarded((event: PopStateEvent) => {
    if (location.pathname + location.search === shown) return; // a hash change on the same page
    void navigate(new URL(location.href), false, (event.state as { scroll?: [number, number] } | null)?.scroll);
  }),
);
addEventListener(
  NAVIGATE_EVENT,
  guarded((event: Event) => {
    const { response } = (event as CustomEvent<NavigateDetail>).detail;
    event.preventDefault();
    saveScroll();
    void navigate(new URL(response.url), true, undefined, response);
  }),
);
for (const type of ['mouseover', 'focusin', 'touchstart']) document.addEventListener(type, guarded(onIntent), { passive: true });
observeViewportLinks();

/**
 * The client router (docs/navigation.md): one small module on every page, never React. It takes
 * over same-origin link clicks, back/forward and a form's followed answer, and prefetches links;
 * anything that fails becomes a full-page navigation to the target, and nothing loops. This file
 * only wires the events; each concern has its module: `links.ts` (which clicks), `navigation.ts`
 * (one navigation), `prefetch.ts`, `scroll.ts` (scroll memory), `after-paint.ts` (the first
 * page's islands). Browser code only.
 */
import { NAVIGATE_EVENT, type NavigateDetail } from '../../protocol/page-data.js';
import { loadIslandsAfterPaint } from './after-paint.js';
import { guarded } from './failure.js';
import { clicked } from './links.js';
import { navigate } from './navigation.js';
import { observeViewportLinks, prefetchOnIntent } from './prefetch.js';
import { keepScroll, saveScroll, savedScroll } from './scroll.js';
import { shows } from './show.js';

// Listening costs next to nothing and takes a click at once.
keepScroll();
document.addEventListener(
  'click',
  guarded((event: MouseEvent) => {
    const url = clicked(event);
    if (!url) return;
    event.preventDefault();
    saveScroll();
    void navigate(url, url.href !== location.href);
  }),
);
addEventListener(
  'popstate',
  guarded((event: PopStateEvent) => {
    if (shows(location)) return; // a hash change on the same page (docs/navigation.md §5)
    void navigate(new URL(location.href), false, savedScroll(event.state));
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

/** Starts the router's work: the page's islands, and the prefetch of its links. */
function start(): void {
  loadIslandsAfterPaint();
  for (const type of ['mouseover', 'focusin', 'touchstart']) document.addEventListener(type, guarded(prefetchOnIntent), { passive: true });
  observeViewportLinks();
}

// Once the page is parsed (the router is async and may run before: its links are not all there
// yet), and in a task of its own, so that no task of the router's is long on a slow phone
// (docs/performance.md §7).
if (document.readyState === 'loading') addEventListener('DOMContentLoaded', () => setTimeout(start), { once: true });
else setTimeout(start);

/**
 * The page `<main>` shows (docs/navigation.md §3): its path, and the swap to a new page with its
 * title, description, history entry, scroll, focus, announcement and `aria-current`.
 * Browser code only.
 */
import { ANNOUNCER_ID } from '../../protocol/navigation.js';
import type { Loaded } from './page-data.js';
import { scrollInto, type ScrollPosition } from './scroll.js';

/**
 * A page's key: its path and query, without the hash.
 * @param url a URL, or `location`
 * @returns e.g. `/aanmeldingen/42?x=1`
 */
export function pageKey(url: URL | Location): string {
  return url.pathname + url.search;
}

/** The key of the page `<main>` shows; set by {@link show}. */
let shown = pageKey(location);

/**
 * Whether `<main>` already shows a URL's page, whatever its hash (docs/navigation.md §2, §5–§6).
 * @param url a URL, or `location`
 */
export function shows(url: URL | Location): boolean {
  return pageKey(url) === shown;
}

/** The head's description follows the page shown (docs/navigation.md §1); error pages have none. */
function describe(description: string | null): void {
  document.querySelector('meta[name="description"]')?.remove();
  if (description !== null) document.querySelector('title')!.after(Object.assign(document.createElement('meta'), { name: 'description', content: description }));
}

/**
 * Shows a loaded page (docs/navigation.md §3 step 5): swaps the content of `<main>`, sets the
 * title and description, pushes the final URL with the target's hash, scrolls, focuses the
 * `<h1>`, announces the title in the layout's live region and updates `aria-current`.
 * @param loaded the page data and the URL that answered it
 * @param target the URL navigated to (its hash is kept)
 * @param push whether to push a history entry (false for back and forward)
 * @param scroll the position saved for a history entry (back and forward only)
 */
export function show({ data, url }: Loaded, target: URL, push: boolean, scroll?: ScrollPosition): void {
  const main = document.querySelector('main')!;
  main.innerHTML = data.html;
  document.title = data.title;
  describe(data.description);
  const next = new URL(url);
  next.hash = target.hash;
  if (push) history.pushState({ scroll: [0, 0] }, '', next);
  shown = pageKey(location);
  for (const link of document.querySelectorAll<HTMLAnchorElement>('nav a')) {
    if (link.pathname === location.pathname) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  scrollInto(target, scroll);
  const heading = main.querySelector('h1');
  if (heading) {
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }
  document.getElementById(ANNOUNCER_ID)!.textContent = data.title;
}

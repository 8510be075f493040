/**
 * Scroll memory (docs/navigation.md §3, §5): the router keeps scroll restoration to itself, saves
 * each history entry's position in `history.state` as the page scrolls, and puts a shown page at
 * its saved position, its hash's element or the top.
 * Browser code only.
 */

/** A scroll position: `[x, y]` in CSS pixels. */
export type ScrollPosition = [number, number];

/**
 * Saves the current scroll position in the current history entry's state, keeping what else the
 * state holds (docs/navigation.md §3, §5).
 */
export function saveScroll(): void {
  history.replaceState({ ...(history.state as object | null), scroll: [scrollX, scrollY] }, '');
}

/**
 * The scroll position saved in a history entry's state (docs/navigation.md §5).
 * @param state a `popstate` event's state
 * @returns the position, or undefined when none was saved
 */
export function savedScroll(state: unknown): ScrollPosition | undefined {
  return (state as { scroll?: ScrollPosition } | null)?.scroll;
}

/**
 * Scrolls a page just shown (docs/navigation.md §3, §5): to the saved position when there is
 * one, else to the element the target's hash names, else to the top.
 * @param target the URL navigated to
 * @param saved the position saved for a history entry (back and forward only)
 */
export function scrollInto(target: URL, saved?: ScrollPosition): void {
  const anchor = target.hash ? document.getElementById(decodeURIComponent(target.hash.slice(1))) : null;
  if (saved) scrollTo(saved[0], saved[1]);
  else if (anchor) anchor.scrollIntoView();
  else scrollTo(0, 0);
}

/**
 * Takes scroll restoration from the browser and saves the position 100 ms after each scroll
 * comes to rest (docs/navigation.md §5). Nothing is saved at start: an entry without a position
 * is shown at its hash's element or the top, where a page starts, and saving is a same-document
 * navigation (`replaceState`) that can hold Chromium's main thread for milliseconds
 * (docs/performance.md §7).
 */
export function keepScroll(): void {
  history.scrollRestoration = 'manual';
  let timer: ReturnType<typeof setTimeout> | undefined;
  addEventListener('scroll', () => {
    clearTimeout(timer);
    timer = setTimeout(saveScroll, 100);
  });
}

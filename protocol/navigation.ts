/**
 * The client router's names in server-rendered HTML (docs/navigation.md §2–§3, §6): what the
 * layout and the views write and the router reads, so both spell them once.
 */

/**
 * The id of the layout's visually hidden `aria-live` region, where the router announces each new
 * page's title (docs/pages.md §3, docs/navigation.md §3).
 */
export const ANNOUNCER_ID = 'aankondiging';

/** A link with this attribute (any value) is left to the browser (docs/navigation.md §2). */
export const RELOAD_ATTRIBUTE = 'data-reload';

/**
 * A link with this attribute set to {@link PREFETCH_VIEWPORT} is prefetched once it enters the
 * viewport, not only on hover, focus or touch (docs/navigation.md §6).
 */
export const PREFETCH_ATTRIBUTE = 'data-prefetch';

/** The value of {@link PREFETCH_ATTRIBUTE} that prefetches a link on entering the viewport. */
export const PREFETCH_VIEWPORT = 'viewport';

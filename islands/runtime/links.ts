/**
 * Which links the router takes (docs/navigation.md §2): the link an event happened on, whether
 * the router may handle it, and whether a click is one it takes.
 * Browser code only.
 */
import { RELOAD_ATTRIBUTE } from '../../protocol/navigation.js';
import { shows } from './show.js';

/**
 * The link (`<a href>`) an event's target is, or is inside (docs/navigation.md §2, §6).
 * @returns the link, or null/undefined when there is none
 */
export function linkOf(event: Event): HTMLAnchorElement | null | undefined {
  return (event.target as Element | null)?.closest?.<HTMLAnchorElement>('a[href]');
}

/**
 * The URL of a link the router may handle (docs/navigation.md §2, §6): of the page's origin,
 * with neither a `download` nor a `data-reload` attribute.
 * @returns the link's URL, or undefined when it is the browser's
 */
export function routable(link: HTMLAnchorElement): URL | undefined {
  if (link.hasAttribute('download') || link.hasAttribute(RELOAD_ATTRIBUTE)) return undefined;
  const url = new URL(link.href);
  return url.origin === location.origin ? url : undefined;
}

/**
 * The URL a click asks the router to navigate to (docs/navigation.md §2): a left click without a
 * modifier, not yet prevented, on a routable link without another target. An in-page anchor on
 * the page shown (the skip link, the error summary) stays the browser's.
 * @returns the URL, or undefined when the click is the browser's
 */
export function clicked(event: MouseEvent): URL | undefined {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return undefined;
  const link = linkOf(event);
  if (!link || (link.target && link.target !== '_self')) return undefined;
  const url = routable(link);
  return !url || (shows(url) && url.hash) ? undefined : url;
}

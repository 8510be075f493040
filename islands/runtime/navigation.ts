/**
 * One navigation of the client router (docs/navigation.md §3–§4): manifest, page data (or what a
 * prefetch holds), assets, then the swap; a newer navigation makes an older one give up quietly.
 * Browser code only.
 */
import { startIslands } from './after-paint.js';
import { loadAssets } from './assets.js';
import { fail, RouteFailure } from './failure.js';
import { loadManifest } from './manifest.js';
import { fetchPageData, readPageData } from './page-data.js';
import { observeViewportLinks, prefetchedPage } from './prefetch.js';
import type { ScrollPosition } from './scroll.js';
import { show } from './show.js';

/** The number of the newest navigation; the only one allowed to show its page. */
let latest = 0;

/**
 * Navigates to a URL (docs/navigation.md §3–§5). An expected failure becomes a full-page load of
 * the target (`location.assign`); an exception shows the Application error in place of `<main>`
 * and is reported. Nothing is thrown to the caller.
 * @param target the URL to show, its hash included
 * @param push whether to push a history entry (false for back and forward)
 * @param scroll the position saved for a history entry (back and forward only)
 * @param response an answer already fetched with the marker (a form post's followed 303,
 *   docs/forms.md §5) to show instead of fetching
 * @returns settles when the page is shown, has been handed to the browser, or was overtaken
 */
export async function navigate(target: URL, push: boolean, scroll?: ScrollPosition, response?: Response): Promise<void> {
  const id = ++latest;
  try {
    const m = await loadManifest();
    const loaded = await (response ? readPageData(response, m.buildId) : (prefetchedPage(target) ?? fetchPageData(target, m)));
    if (id !== latest) return;
    await loadAssets(loaded.data, m);
    if (id !== latest) return;
    show(loaded, target, push, scroll);
    observeViewportLinks();
    if (loaded.data.islands.length > 0) void startIslands(m.runtime.file);
  } catch (error) {
    if (id !== latest) return;
    if (error instanceof RouteFailure) location.assign(target.href);
    else fail(error);
  }
}

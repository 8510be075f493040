/**
 * Islands loaded after the page's first paint (docs/islands.md §3): the router imports the island
 * runtime and has it schedule the page's islands, reporting with the router's client errors.
 * Browser code only.
 */
import { META } from '../../protocol/meta.js';
import { addLink } from './assets.js';
import { reportClientError, showApplicationError } from './client-errors.js';
import type { scanIslands } from './islands.js';

/**
 * Imports the island runtime and has it schedule the page's islands (docs/islands.md §2), with
 * this module's client errors (docs/errors.md §5).
 * @param runtime the island runtime's URL
 * @returns settles once the islands are scheduled
 * @throws (rejects) what the import throws
 */
export async function startIslands(runtime: string): Promise<void> {
  const islands = (await import(runtime)) as { scanIslands: typeof scanIslands };
  islands.scanIslands({ report: reportClientError, show: showApplicationError });
}

/**
 * Runs each step in a task of its own, in order: requesting a module can hold Chromium's main
 * thread for milliseconds, and several in one task make a long task on a slow phone
 * (docs/performance.md §7). In a hidden tab the browser runs them at its own pace for hidden
 * pages (about one a second), and at once when the tab is shown.
 */
function inTasks([step, ...rest]: Array<() => void>): void {
  step?.();
  if (rest.length > 0) setTimeout(() => inTasks(rest));
}

/**
 * Loads the page's islands once it has loaded and painted (docs/islands.md §3): the modules the
 * island runtime needs, listed in `<meta name="eiland-islands">`, are preloaded, then the runtime
 * is imported and hydrates the islands, each request in a task of its own. Until then nothing but
 * the router competes with what the page's first paint waits for. A hidden page (a background tab
 * paints nothing) loads them when loaded. A module that cannot be loaded is reported; the page
 * goes on working without JavaScript. A page without islands loads nothing.
 */
export function loadIslandsAfterPaint(): void {
  const [runtime, ...needed] = document.querySelector(`meta[name="${META.afterPaint}"]`)?.getAttribute('content')?.split(' ').filter(Boolean) ?? [];
  if (!runtime) return;
  const load = () =>
    inTasks([...needed.map((href) => () => addLink({ rel: 'modulepreload', href })), () => void startIslands(runtime).catch((error: unknown) => reportClientError(error))]);
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

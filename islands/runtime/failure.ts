/**
 * How a navigation fails (docs/navigation.md §3–§4): an expected failure ends in a full-page
 * load of the target, an exception in the Application error in place of `<main>`.
 * Browser code only.
 */
import { reportClientError, showApplicationError } from './client-errors.js';

/** Manifest, page data and assets each get at most this long (docs/navigation.md §3). */
const TIMEOUT_MS = 3800;
/** The exact message of a route that did not load in time (docs/navigation.md §3). */
const ROUTE_TIMEOUT = 'Route did not complete loading';

/**
 * An expected failure of a navigation (docs/navigation.md §4). Its answer is a full-page load of
 * the target, so it carries no message.
 */
export class RouteFailure extends Error {}

/**
 * Runs `work` for at most 3800 ms (docs/navigation.md §3).
 * @param work the load, given a signal that aborts at the time-out
 * @param report whether a time-out writes `Route did not complete loading` to `console.error`
 * @returns what `work` resolves to
 * @throws RouteFailure when `work` fails or times out (a RouteFailure of its own is passed on)
 */
export function timed<T>(work: (signal: AbortSignal) => Promise<T>, report = false): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  return work(controller.signal)
    .catch((error: unknown) => {
      if (controller.signal.aborted && report) console.error(ROUTE_TIMEOUT);
      throw error instanceof RouteFailure ? error : new RouteFailure();
    })
    .finally(() => clearTimeout(timer));
}

/**
 * Shows the Application error in place of `<main>` and reports the error (docs/navigation.md §3,
 * docs/errors.md §5).
 * @param error what the router threw
 */
export function fail(error: unknown): void {
  showApplicationError(document.querySelector('main')!);
  reportClientError(error);
}

/**
 * Wraps an event handler of the router so that what it throws is shown and reported with
 * {@link fail} (docs/navigation.md §3).
 * @param handler the handler; it throws nothing to its caller once wrapped
 * @returns the handler to register
 */
export function guarded<E extends Event>(handler: (event: E) => void): (event: E) => void {
  return (event) => {
    try {
      handler(event);
    } catch (error) {
      fail(error);
    }
  };
}

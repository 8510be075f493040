/**
 * The development reload channel (docs/development.md §2–§3): its path, the server-sent events
 * it carries, and when the browser's reload client tries to reach it again after losing it:
 * after 1 s for the first 5 failed tries, then every 5 s; after 25 failed tries it reloads the
 * page. A successful connection resets the count. Pure; shared by the server's channel, the
 * browser's reload client and its tests.
 */

/** The reload channel's path (development only). */
export const RELOAD_PATH = '/_eiland/reload';

/**
 * The channel's events, each one `event:` line and one `data:` line of JSON: `hello` on connect
 * and `reload` after a good rebuild carry the id of the build pages should show; `build-failed`
 * carries what the developer's build printed.
 */
export type ReloadEvent = { type: 'hello'; id: string } | { type: 'reload'; id: string } | { type: 'build-failed'; message: string };

/** The seed's hot-reload constants (docs/development.md §3). */
export const RECONNECT = {
  /** Delay before each of the first tries. */
  fastDelayMs: 1000,
  /** How many failed tries keep the fast delay. */
  fastTries: 5,
  /** Delay once `fastTries` tries have failed. */
  slowDelayMs: 5000,
  /** Failed tries after which the page reloads instead. */
  reloadAfter: 25,
} as const;

/** What to do next: try again after a delay, or reload the page. */
type NextStep = { reload: false; delayMs: number } | { reload: true };

/**
 * The step after `failedTries` failed tries since the channel was lost (0: it was just lost).
 * @param failedTries a whole number ≥ 0
 * @returns `{ reload: false, delayMs }` (1000 ms below 5 failures, else 5000 ms), or
 *   `{ reload: true }` from 25 failures on
 * @throws RangeError when `failedTries` is not a whole number ≥ 0
 */
export function nextStep(failedTries: number): NextStep {
  if (!Number.isInteger(failedTries) || failedTries < 0) throw new RangeError(`failedTries must be a whole number ≥ 0, got ${failedTries}`);
  if (failedTries >= RECONNECT.reloadAfter) return { reload: true };
  return { reload: false, delayMs: failedTries < RECONNECT.fastTries ? RECONNECT.fastDelayMs : RECONNECT.slowDelayMs };
}

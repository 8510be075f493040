/**
 * Deferred loader data (docs/streaming.md §3). A loader may return promises among its props; the view
 * reads them with React's `use()` inside a Suspense boundary, which streams in after the shell.
 * A promise that has already settled when the render starts — SQLite answers at once — need not
 * wait for a second flush: React's `use()` reads a thenable's `status` and `value` (the
 * convention React documents for data libraries) and renders the value in the shell. The page
 * then has no fallback, no hidden segment and no reveal script, and a reader without JavaScript
 * sees the value itself (one flush instead of two; docs/performance.md §4).
 */

/** A promise tagged the way React's `use()` reads it once it has settled. */
export type TrackedPromise = Promise<unknown> & { status?: 'fulfilled' | 'rejected'; value?: unknown; reason?: unknown };

/**
 * Tags each promise-valued prop with its outcome as soon as it settles, and waits until every one
 * has settled or one turn of the event loop has passed, whichever comes first. A promise still
 * pending after that streams into its boundary as before.
 * @param props a loader's props; promise values are tagged in place, nothing else is touched
 * @returns resolves when the render may start; never rejects
 */
export function settleDeferred(props: object): Promise<void> {
  const promises = Object.values(props).filter((value): value is TrackedPromise => value instanceof Promise);
  if (promises.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    let pending = promises.length;
    const turn = setImmediate(resolve);
    const settled = () => {
      if (--pending > 0) return;
      clearImmediate(turn);
      resolve();
    };
    for (const promise of promises) {
      // The callbacks return nothing: returning the promise itself would re-reject it unhandled.
      promise.then(
        (value) => {
          Object.assign(promise, { status: 'fulfilled', value });
          settled();
        },
        (reason: unknown) => {
          Object.assign(promise, { status: 'rejected', reason });
          settled();
        },
      );
    }
  });
}

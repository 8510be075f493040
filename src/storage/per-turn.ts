/**
 * A value read from the database at most once per turn of the event loop (docs/operations.md §3).
 */

/** A value read once per turn, and forgotten when the instance changes it. */
export interface TurnValue<T> {
  /** The turn's read: the first call of a turn reads, later calls of that turn get the same promise. */
  read(): Promise<T>;
  /**
   * Wraps work that may change the value: the turn's read is dropped once the work has settled,
   * done or failed, so the next call reads again.
   * @param work the write, e.g. a save; its result or rejection is passed on unchanged
   */
  forgetting<R>(work: () => Promise<R>): () => Promise<R>;
}

/**
 * Shares one read among the calls of one turn of the event loop. The requests a turn handles are
 * concurrent, so one answer serves them all: under load a turn handles some thirty requests of
 * `/`, each of which reads the count (docs/performance.md §4). Another instance's change shows
 * from the next turn; this instance's own, at once, through {@link TurnValue.forgetting}.
 * @param read the read, e.g. the engine's guarded count
 */
export function readOncePerTurn<T>(read: () => Promise<T>): TurnValue<T> {
  let current: Promise<T> | undefined;
  const forget = () => {
    current = undefined;
  };
  return {
    read() {
      if (current === undefined) {
        const made = read();
        current = made;
        // Immediates run after the turn's I/O callbacks: a read made while handling requests is
        // not shared with the next turn's. A read made after an own write forgot this one has its
        // own immediate.
        setImmediate(() => {
          if (current === made) current = undefined;
        });
      }
      return current;
    },
    forgetting: (work) => async () => {
      try {
        return await work();
      } finally {
        forget();
      }
    },
  };
}

/**
 * Bounded concurrency for image work (docs/images.md §6): at most `concurrency` jobs at once and at most
 * `maxQueued` waiting; one more is refused at once, so a burst of cold image requests never
 * piles up work (or memory) that page requests would wait behind.
 */

/** Thrown by {@link JobQueue.run} when the queue is full (the handler answers 503). */
export class QueueFull extends Error {
  constructor() {
    super('Image queue is full');
    this.name = 'QueueFull';
  }
}

/** A semaphore with a bounded wait list. */
export class JobQueue {
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  /**
   * @param concurrency jobs at once, ≥ 1
   * @param maxQueued jobs that may wait, ≥ 0
   * @throws RangeError on a bound out of range
   */
  constructor(
    readonly concurrency: number,
    readonly maxQueued: number,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be an integer ≥ 1, got ${concurrency}`);
    if (!Number.isInteger(maxQueued) || maxQueued < 0) throw new RangeError(`maxQueued must be an integer ≥ 0, got ${maxQueued}`);
  }

  /** Jobs running now. */
  get running(): number {
    return this.#running;
  }

  /** Jobs waiting for a slot. */
  get queued(): number {
    return this.#waiting.length;
  }

  /**
   * Runs a job when a slot is free.
   * @returns the job's result
   * @throws QueueFull (rejected at once) when every slot is busy and the wait list is full
   */
  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.#running >= this.concurrency) {
      if (this.#waiting.length >= this.maxQueued) throw new QueueFull();
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#running++;
    }
    try {
      return await job();
    } finally {
      // The slot passes straight to the next waiter, or is freed.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}

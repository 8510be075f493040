/**
 * Waiting with a bound (docs/qa-kit.md §1): for a promise, or for a condition polled.
 * Re-exported by test/helpers/app.ts.
 */

/**
 * Waits for a promise, but not forever: a stream's end, a socket's close, a process's exit.
 * @param promise what to wait for
 * @param ms the bound
 * @param what what is awaited, for the message, e.g. `the reload stream to close`
 * @returns what the promise resolves to
 * @throws Error `<what>: not within <ms> ms` when the bound passes first; the promise's own rejection
 */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, bound]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Polls a condition every 20 ms until it holds.
 * @param check the condition, e.g. that a log line has been written, or a promise of it (a query)
 * @param ms the bound
 * @throws Error `condition not met within <ms> ms` when the bound passes first
 */
export async function waitFor(check: () => boolean | Promise<boolean>, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The one way engines run database work: any failure becomes `StorageUnavailableError`.
 */
import { StorageUnavailableError } from './types.js';

/**
 * Runs database work, turning what it throws or rejects with into `StorageUnavailableError`.
 * @param operation what is done, for the message, e.g. `count`
 * @throws StorageUnavailableError when the work fails
 */
export function guarded<T>(operation: string, work: () => T | Promise<T>): Promise<T> {
  const failed = (error: unknown) => Promise.reject(new StorageUnavailableError(operation, error));
  let result: T | Promise<T>;
  try {
    result = work();
  } catch (error) {
    return failed(error);
  }
  // Synchronous work (opening the SQLite file) settles without an async function around it.
  return result instanceof Promise ? result.catch(failed) : Promise.resolve(result);
}

/** Every this many hits, an engine removes the rate-limit rows whose window has ended. */
export const RATE_LIMIT_CLEANUP_EVERY = 200;

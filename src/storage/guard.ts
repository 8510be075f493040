/**
 * The one way engines run database work: any failure becomes `StorageUnavailableError`.
 */
import { StorageUnavailableError } from './types.js';

/**
 * Runs database work, turning what it throws or rejects with into `StorageUnavailableError`.
 * @param operation what is done, for the message, e.g. `count`
 * @throws StorageUnavailableError when the work fails
 */
export async function guarded<T>(operation: string, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new StorageUnavailableError(operation, error);
  }
}

/** Every this many hits, an engine removes the rate-limit rows whose window has ended. */
export const RATE_LIMIT_CLEANUP_EVERY = 200;

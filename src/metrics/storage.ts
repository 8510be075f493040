/**
 * `eiland_storage_errors_total{operation}` (docs/operations.md §7): the storage contract with every
 * failure counted, whichever engine and whoever called (a page's loader, a rate limit, a form).
 */
import { StorageUnavailableError, type Storage } from '../storage/types.js';
import type { Metrics } from './index.js';

/**
 * Wraps a storage so that each `StorageUnavailableError` it rejects with is counted by its
 * operation, then passed on unchanged.
 * @param storage any engine
 * @returns the same contract
 */
export function countStorageErrors(storage: Storage, metrics: Metrics): Storage {
  const count = (error: unknown): never => {
    if (error instanceof StorageUnavailableError) metrics.storageErrors.inc({ operation: error.operation });
    throw error;
  };
  // Each method wrapped once, not a proxy that makes a wrapper on every call; beheer's storage, a
  // part of the contract, the same way.
  const wrap = (object: object): Record<string, unknown> => {
    const wrapped: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(object)) {
      wrapped[name] = typeof value === 'function' ? (...args: unknown[]) => (value as (...a: unknown[]) => Promise<unknown>).apply(object, args).catch(count) : value;
    }
    return wrapped;
  };
  return { ...wrap(storage), staff: wrap(storage.staff) } as unknown as Storage;
}

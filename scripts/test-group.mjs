// What a group entry of scripts/test-files.mjs runs (docs/qa-kit.md §1): several test files in one
// process, each inside a suite of its own.
import { describe } from 'node:test';

/**
 * Loads test files one after the other, each inside a suite named by its path and bounded by
 * `timeout`: a file's top-level hooks (a `useApp()` at its top) and tests belong to its suite, so
 * they run around its own tests and no other file's, as when it has its process to itself.
 *
 * A test defined as a module is evaluated belongs to the suite in whose callback the module's
 * import began. So each suite begins its file's import itself, and the next suite is made only once
 * that import is done: two imports under way at once would share the evaluation of the modules
 * they have in common, and with it their tests.
 * @param {Array<[path: string, url: string]>} files path relative to the root (the suite's name)
 *   and file URL, in the order they run
 * @param {{ timeout: number }} limits `timeout`: how long one file may take, in ms
 * @returns {Promise<void>} once every file is imported (its tests defined, not yet run)
 */
export async function shareProcess(files, { timeout }) {
  for (const [path, url] of files) {
    await new Promise((imported) => {
      describe(path, { timeout }, async () => {
        try {
          await import(url);
        } finally {
          imported(undefined);
        }
      });
    });
  }
}

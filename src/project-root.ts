/**
 * The one anchor of every path the server reads or writes (`dist/`, `public/`, `data/`):
 * the nearest folder above this module that holds a `package.json`. The same rule finds
 * the project from `src/` under tsx and from the bundle in `dist/server/`, and does not
 * depend on the working directory.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Finds the project root above a file.
 * @param from a file or folder path inside the project
 * @returns the absolute path of the nearest folder (from `from` upwards) with a `package.json`
 * @throws Error when no folder above `from` has one
 */
export function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json above ${from}: cannot find the Eiland project root`);
  }
}

/** The project root of this server. */
export const PROJECT_ROOT = findProjectRoot(dirname(fileURLToPath(import.meta.url)));

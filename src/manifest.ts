/**
 * The build manifest written by `build.mjs` (product.md §5), read once at start-up.
 */
import { readFileSync } from 'node:fs';

/** What the server needs from a build. */
export interface BuildManifest {
  /** Identifies the build (changes with any asset). */
  buildId: string;
  /** URL of the content-hashed stylesheet, e.g. `/assets/styles-AB12CD34.css`. */
  styles: string;
}

/**
 * Reads and checks the build manifest.
 * @param file path of `manifest.json`, by default `dist/manifest.json`
 * @throws Error naming the file and the command to run when it is missing or invalid
 */
export function readManifest(file = 'dist/manifest.json'): BuildManifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new Error(`Build manifest ${file} is missing or unreadable: run "node build.mjs" first`, { cause });
  }
  const m = parsed as Partial<BuildManifest>;
  if (typeof m.buildId !== 'string' || typeof m.styles !== 'string') {
    throw new Error(`Build manifest ${file} is invalid: run "node build.mjs" again`);
  }
  return { buildId: m.buildId, styles: m.styles };
}

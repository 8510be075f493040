// A node:test reporter (docs/qa-kit.md §1): how long each test file took, kept in the build cache
// so that scripts/test-files.mjs can balance the next run's groups by time, as Jest orders its
// files by their last durations. It writes nothing to its own destination.
//
//   node --test --test-reporter=spec --test-reporter-destination=stdout \
//     --test-reporter=./scripts/test-durations.mjs --test-reporter-destination=stdout …
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir } from '../build/paths.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Where the durations are kept: test file (relative to the root) → ms of its last run. */
export const DURATIONS = join(cacheDir(ROOT), 'test-durations.json');

/**
 * The durations of earlier runs.
 * @returns {Record<string, number>} test file, relative to the root → ms; empty before the first run
 */
export function readDurations() {
  try {
    return JSON.parse(readFileSync(DURATIONS, 'utf8'));
  } catch {
    return {};
  }
}

/**
 * Keeps durations in place of the earlier ones, whole or not at all: a run of another lane may be
 * reading them.
 * @param {Record<string, number>} kept test file, relative to the root → ms
 */
export function writeDurations(kept) {
  mkdirSync(dirname(DURATIONS), { recursive: true });
  const written = `${DURATIONS}.${process.pid}.tmp`;
  writeFileSync(written, `${JSON.stringify(kept, null, 1)}\n`);
  renameSync(written, DURATIONS);
}

/**
 * The reporter: every file's suite in a group entry (named by its path, scripts/test-files.mjs)
 * reports once at the top level with its duration; those of this run replace the earlier ones.
 * @param {AsyncIterable<{ type: string, data: { name: string, nesting: number, details?: { duration_ms?: number } } }>} source
 */
export default async function* durations(source) {
  /** @type {Record<string, number>} */
  const seen = {};
  for await (const { type, data } of source) {
    if ((type === 'test:pass' || type === 'test:fail') && data.nesting === 0 && /^test\/.+\.test\.tsx?$/.test(data.name) && data.details?.duration_ms !== undefined) {
      seen[data.name] = Math.round(data.details.duration_ms);
    }
  }
  if (Object.keys(seen).length > 0) writeDurations({ ...readDurations(), ...seen });
}

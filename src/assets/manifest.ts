/**
 * Reads the build manifest (docs/islands.md §4) that the build writes: its one type lives in
 * the protocol (`protocol/manifest.ts`), shared by the build, the server and the router.
 */
import { readFileSync } from 'node:fs';
import type { BuildManifest } from '../../protocol/manifest.js';

/**
 * Reads and checks a build manifest.
 * @param file path of `manifest.json`
 * @param command the command that writes it, for the message (e.g. `npm run build`)
 * @throws Error naming the file and the command when it is missing or invalid
 */
export function readManifest(file: string, command = 'npm run build'): BuildManifest {
  let parsed: Partial<BuildManifest>;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<BuildManifest>;
  } catch (cause) {
    throw new Error(`Build manifest ${file} is missing or unreadable: run "${command}" first`, { cause });
  }
  if (typeof parsed.buildId !== 'string' || typeof parsed.styles !== 'string' || !parsed.runtime || !parsed.router || !parsed.islands || !parsed.images || !parsed.routes) {
    throw new Error(`Build manifest ${file} is invalid: run "${command}" again`);
  }
  return parsed as BuildManifest;
}

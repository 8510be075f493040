/**
 * Where the renderer asks for the current client build, per request (docs/islands.md §4). In
 * production the manifest is read once at start; in development the runner feeds every rebuild
 * (src/dev/page-build.ts) and the build changes in place.
 */
import type { BuildManifest } from '../../protocol/manifest.js';
import { BUNDLE } from './bundle.js';
import { readManifest } from './manifest.js';

/** The current client build, asked for per request. */
export interface AssetsSource {
  /** The build folder: `manifest.json` and `assets/` (served as `/assets/`). */
  readonly dir: string;
  /** The manifest to render this request with. */
  current(): BuildManifest;
}

/**
 * Production: the manifest of `dir`, read once.
 * @param dir the build folder (e.g. `dist`)
 * @throws Error naming the command to run when the manifest is missing or invalid, or when it
 *   is not the build this server bundle was made with (a stale `dist/`)
 */
export function productionAssets(dir: string): AssetsSource {
  const manifest = readManifest(`${dir}/manifest.json`);
  if (BUNDLE?.buildId && BUNDLE.buildId !== manifest.buildId) {
    throw new Error(`${dir}/manifest.json is build ${manifest.buildId}, but this server was bundled with build ${BUNDLE.buildId}: run "npm run build"`);
  }
  return { dir, current: () => manifest };
}

/**
 * The asset plan of a page (docs/islands.md §3): from the build manifest and the islands a
 * route declares, what the page loads. Pure: no request, no I/O.
 */
import type { BuildManifest, ScriptRef } from '../../protocol/manifest.js';

/** What a page loads. */
export interface AssetPlan {
  /** Module scripts the page runs at once: the router, on every page. */
  scripts: string[];
  /**
   * Where islands are, the modules the router loads after the first paint (docs/islands.md §3):
   * the island runtime first, then each island chunk and the imports of both; else none.
   */
  afterPaint: string[];
  /** Each declared island with its chunk, for page data. */
  islands: Array<ScriptRef & { name: string }>;
  /** Every asset of the route, for page data: the manifest's entry, or (a route outside the build) this plan's own. */
  assets: string[];
  /** An island's chunk URL, by name. */
  fileOf(name: string): string;
}

/**
 * Plans a page's assets.
 * @param manifest the current client build
 * @param islands the islands the route declares, e.g. `['RegistrationForm']`
 * @param route the route pattern, or undefined (an error page on an unknown path)
 * @throws Error naming the island when the build does not have it (run `npm run build`)
 */
export function assetPlan(manifest: BuildManifest, islands: readonly string[], route: string | undefined): AssetPlan {
  const islandScripts = islands.map((name) => ({ name, ...islandScript(manifest, name) }));
  const runtime = islandScripts.length > 0 ? [manifest.runtime] : [];
  const preloads = [...new Set([manifest.router, ...runtime].flatMap((s) => s.imports).concat(islandScripts.flatMap((s) => [s.file, ...s.imports])))];
  return {
    scripts: [manifest.router.file],
    afterPaint: runtime.length > 0 ? [...new Set([...runtime.map((s) => s.file), ...preloads])] : [],
    islands: islandScripts,
    assets: (route === undefined ? undefined : manifest.routes[route]?.assets) ?? [manifest.styles, ...runtime.map((s) => s.file), ...preloads],
    fileOf: (name) => islandScript(manifest, name).file,
  };
}

function islandScript(manifest: BuildManifest, name: string): ScriptRef {
  const script = manifest.islands[name];
  if (!script) throw new Error(`Island "${name}" is not in build ${manifest.buildId}: run "npm run build"`);
  return script;
}

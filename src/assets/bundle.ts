/**
 * What the build (build/server.mjs) stamped into the server bundle (docs/islands.md §4): its mode and the client
 * build it was built with. Undefined when the server runs from `src/` (tests under tsx).
 */

/** The stamp of a server bundle. */
interface BundleStamp {
  mode: 'production' | 'development';
  /** The client build id the bundle serves; null in development, where the watcher feeds it. */
  buildId: string | null;
}

declare global {
  // Replaced by literals at bundle time (esbuild `define`); never set at run time.
  var EILAND_BUNDLE_MODE: BundleStamp['mode'] | undefined;
  var EILAND_BUNDLE_BUILD_ID: string | null | undefined;
}

/** This process's bundle stamp, or undefined outside a bundle. */
export const BUNDLE: BundleStamp | undefined = globalThis.EILAND_BUNDLE_MODE ? { mode: globalThis.EILAND_BUNDLE_MODE, buildId: globalThis.EILAND_BUNDLE_BUILD_ID ?? null } : undefined;

// The build as a module (docs/islands.md §4, docs/development.md §1): the client build, the
// server bundle, the two together, and development's watch. `build.mjs` is its command line.
/** @import { BuildManifest } from '../protocol/manifest.js' */
import { buildClient } from './client.mjs';
import { ROOT } from './paths.mjs';
import { bundleServer, writeServer } from './server.mjs';

export { buildClient } from './client.mjs';
export { formatBuildErrors } from './errors.mjs';
export { ROOT, SERVER_ENTRY } from './paths.mjs';
export { buildServer } from './server.mjs';
export { watch } from './watch.mjs';

/**
 * The whole build (`npm run build`): client and server at once, then the client build id
 * stamped into the server bundle.
 * @param {Parameters<typeof buildClient>[0]} [options] those of {@link buildClient}
 * @returns {Promise<{ manifest: BuildManifest, files: string[], server: string, ms: number }>}
 * @throws Error with esbuild's `errors` when a source does not compile
 */
export async function build({ root = ROOT, out = 'dist', islandDirs = ['islands'], forms, mode = 'production' } = {}) {
  const started = performance.now();
  const [client, server] = await Promise.all([buildClient({ root, out, islandDirs, forms, mode }), bundleServer({ root, out, mode })]);
  const file = await writeServer(server, client.manifest.buildId);
  return { ...client, server: file, ms: Math.round(performance.now() - started) };
}

// The server bundle (docs/islands.md §4): the whole server as one esbuild bundle for plain
// `node`, stamped with the client build it serves.
/** @import { BuildOptions, BuildResult, OutputFile } from 'esbuild' */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import * as esbuild from 'esbuild';
import { ROOT, SOURCES, withRoot } from './paths.mjs';

// Packages the server bundle leaves to node_modules at run time, each with its reason.
// (pino-pretty is not among them: the dev runner pretty-prints; the server never loads it.)
const SERVER_EXTERNALS = [
  'better-sqlite3', // a native addon (.node file): it cannot be bundled
  'sharp', // a native addon with libvips beside it; loaded on the first /_image request only
  'pg-native', // pg's optional libpq binding, loaded only when asked for (never): not installed
];

// Development leaves the packages to node_modules: the bundle is then only the project's own code
// (a rebuild is quick: docs/development.md §1), and the packages are loaded by a server process
// started ahead of need (scripts/dev-server.mjs), not on a restart's path. Bundled all the same:
const DEVELOPMENT_BUNDLED = [
  'validator', // its ES modules import each other without file extensions, which Node refuses
];

/**
 * The packages left to node_modules where the project's own code is bundled for Node (the
 * development server, the build's rule lists): those the project names, but DEVELOPMENT_BUNDLED
 * (a package's subpaths go with it).
 * @param {string} root project root
 * @returns {string[]}
 */
export function packageExternals(root) {
  const { dependencies = {}, devDependencies = {} } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return [...SERVER_EXTERNALS, ...Object.keys({ ...dependencies, ...devDependencies }).filter((name) => !DEVELOPMENT_BUNDLED.includes(name))];
}

// Stands for the client build id in the server bundle until the client build has finished, so
// both build at once; as long as a build id, so the source map's columns stay true.
const BUILD_ID_PLACEHOLDER = '@'.repeat(12);

/**
 * esbuild options of the server bundle.
 * @param {{ root: string, out: string, mode: 'production'|'development', buildId: string | null }} options
 *   `buildId` null in development (the runner feeds the client build)
 * @returns {BuildOptions}
 */
export function serverOptions({ root, out, mode, buildId }) {
  const production = mode === 'production';
  return {
    absWorkingDir: root,
    // The staff command (docs/beheer.md §1) beside the server, so it runs where only dist/ and the pruned packages are.
    entryPoints: { main: SOURCES.server[mode], 'mail-worker': SOURCES.mailWorker, ...(production && { staff: SOURCES.staff }) },
    outdir: join(withRoot(root, out), 'server'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: production ? SERVER_EXTERNALS : packageExternals(root),
    // Dead development branches are dropped; names stay readable in stack traces.
    minifySyntax: true,
    sourcemap: 'linked', // for reading a logged stack; never served (outside /assets)
    sourcesContent: false, // file and line are enough for a stack trace; smaller maps load faster
    jsx: 'automatic',
    define: {
      // React's production build is chosen at build time, not by the environment at run time.
      'process.env.NODE_ENV': JSON.stringify(mode),
      // The bundle refuses a client build other than the one it was built with (src/assets/bundle.ts).
      'globalThis.EILAND_BUNDLE_MODE': JSON.stringify(mode),
      'globalThis.EILAND_BUNDLE_BUILD_ID': JSON.stringify(buildId),
    },
    // Bundled CommonJS packages call require(); ESM output has none of its own.
    banner: { js: "import { createRequire as __eilandRequire } from 'node:module'; const require = __eilandRequire(import.meta.url);" },
    logLevel: 'silent',
  };
}

/**
 * Bundles the server in memory, the client build id still a placeholder.
 * @param {{ root: string, out: string, mode: 'production'|'development' }} options
 * @returns {Promise<BuildResult & { outputFiles: OutputFile[] }>}
 */
export function bundleServer({ root, out, mode }) {
  return esbuild.build({ ...serverOptions({ root, out, mode, buildId: BUILD_ID_PLACEHOLDER }), write: false });
}

/**
 * Writes a bundle from {@link bundleServer} with the client build id filled in.
 * @param {BuildResult & { outputFiles: OutputFile[] }} result
 * @param {string} buildId
 * @returns {Promise<string>} the path of `main.js`
 * @throws RangeError when `buildId` is not a build id's length
 */
export async function writeServer(result, buildId) {
  if (buildId.length !== BUILD_ID_PLACEHOLDER.length) throw new RangeError(`A build id has ${BUILD_ID_PLACEHOLDER.length} characters, got "${buildId}"`);
  const main = result.outputFiles.find((f) => f.path.endsWith(`${sep}main.js`));
  if (!main) throw new Error('The server build wrote no main.js');
  await mkdir(dirname(main.path), { recursive: true });
  await Promise.all(result.outputFiles.map((f) => writeFile(f.path, f.path.endsWith('.js') ? f.text.replace(BUILD_ID_PLACEHOLDER, buildId) : f.contents)));
  return main.path;
}

/**
 * Bundles the server for Node into `<out>/server/main.js` (+ `.map`).
 * @param {object} options
 * @param {string} [options.root] project root
 * @param {string} [options.out] build folder (default `dist`)
 * @param {'production'|'development'} [options.mode]
 * @param {string} options.buildId the client build the bundle serves (checked at its start)
 * @returns {Promise<{ file: string, ms: number }>}
 * @throws Error with esbuild's `errors` when a source does not compile
 */
export async function buildServer({ root = ROOT, out = 'dist', mode = 'production', buildId }) {
  const started = performance.now();
  const file = await writeServer(await bundleServer({ root, out, mode }), buildId);
  return { file, ms: Math.round(performance.now() - started) };
}

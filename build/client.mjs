// The client build (docs/islands.md §3–§4): islands, island runtime, router and styles as ESM,
// each one file, React in a module of its own, content-hashed names, the manifest, and in
// production the .br/.gz twins.
/** @import { BuildOptions, Metafile } from 'esbuild' */
/** @import { BuildManifest } from '../protocol/manifest.js' */
/** @import { DerivedRules } from './rules.mjs' */
import { mkdir, readdir } from 'node:fs/promises';
import { basename, extname, join, relative, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { compress } from './compress.mjs';
import { minifyAgain, pruneMinified } from './minify.mjs';
import { formIslands, islandEntry, unknownFormIslands } from './form-islands.mjs';
import { prune } from './files.mjs';
import { buildImages, imagesOutDir } from './images.mjs';
import { writeManifest } from './manifest.mjs';
import { cacheDir, ROOT, SOURCES, withRoot } from './paths.mjs';
import { deriveRules, SITE_FORMS } from './rules.mjs';
import { buildReact, reactModule } from './react.mjs';
import { buildVendor, vendorModules, vendorOutDir } from './vendor.mjs';

/**
 * Each `.tsx` directly in an islands folder is one island, named by its file.
 * @param {string} dir
 * @returns {Promise<Record<string, string>>} name → absolute path
 */
async function islandsIn(dir) {
  const files = (await readdir(dir)).filter((f) => extname(f) === '.tsx');
  return Object.fromEntries(files.map((f) => [basename(f, '.tsx'), join(dir, f)]));
}

/**
 * esbuild options shared by every browser build.
 * @param {string} root
 * @param {string} outdir
 * @param {boolean} production minified, no source maps
 * @returns {BuildOptions}
 */
function browserOptions(root, outdir, production) {
  return {
    absWorkingDir: root, // metafile paths are relative to the root
    outdir,
    bundle: true,
    format: 'esm', // native modules: <script type="module"> and dynamic import()
    entryNames: '[name]-[hash]', // content hashes: served as immutable
    minify: production,
    sourcemap: production ? false : 'linked', // development only: no sourceMappingURL ships
    // Licence notices in <bundle>.LEGAL.txt beside each bundle, served with it, not in every
    // download: no pointer comment either (its bytes count on every page; docs/islands.md §4).
    legalComments: 'external',
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
    metafile: true, // the manifest is written from it
    logLevel: 'silent', // errors are reported by the caller (terminal, overlay)
  };
}

/**
 * The client build's two esbuild option sets: islands + runtime + styles, each a file of its own
 * (a form island's with the form layer and its rule list), and the router alone (on every page; in
 * development with the reload client beside it). Neither bundles React: production imports
 * React's module (build/react.mjs), whose build begins here, development React's own bundles
 * (build/vendor.mjs), built here first.
 * The builds may begin before the rule lists are derived: a form island's entry waits for them.
 * @param {{ root: string, out: string, islandDirs: string[], production: boolean, rules: Promise<DerivedRules> }} options
 *   rules: the forms' rule lists and their rules' modules (build/rules.mjs `deriveRules`)
 * @returns {Promise<{ islands: Record<string, string>, options: BuildOptions[], checked: Promise<void>, react?: Promise<{ url: string, metafile: Metafile }> }>}
 *   islands by name (their generated entry points), the option sets, the check of the rule
 *   lists, which rejects when a listed form's island has no file in islands/ (or the lists could
 *   not be derived), and in production React's module, once built
 */
export async function clientBuilds({ root, out, islandDirs, production, rules }) {
  /** @type {Record<string, string>} */
  const islands = Object.assign({}, ...(await Promise.all(islandDirs.map((dir) => islandsIn(withRoot(root, dir))))));
  const relativeIslands = Object.fromEntries(Object.entries(islands).map(([name, file]) => [name, relative(root, file)]));
  const checked = rules.then((derived) => {
    const missing = unknownFormIslands(relativeIslands, derived.lists);
    if (missing.length > 0) throw new Error(`src/forms/index.ts lists a form whose island is missing: ${missing.join(', ')}`);
    return derived;
  });
  const entries = Object.fromEntries(Object.keys(relativeIslands).map((name) => [name, islandEntry(name)]));
  const common = browserOptions(root, join(out, 'assets'), production);
  const react = production ? buildReact(common) : undefined;
  react?.catch(() => {}); // the islands' build, which waits for it, reports its failure
  const reactImports = react ? reactModule(react) : vendorModules(await buildVendor({ root, outAbs: out }));
  const entryPoints = { styles: SOURCES.styles, 'eiland-islands': SOURCES.runtime, ...entries };
  const routerEntries = { 'eiland-router': SOURCES.router, ...(production ? {} : { 'eiland-reload': SOURCES.reload }) };
  return {
    islands: entries,
    checked: checked.then(() => undefined),
    react,
    // No splitting: an island's one file (its form layer in it) compresses better than the same
    // code split into a chunk the islands share (docs/performance.md §1).
    options: [
      { ...common, entryPoints, splitting: false, plugins: [reactImports, formIslands(root, relativeIslands, checked)] },
      { ...common, entryPoints: routerEntries, splitting: false },
    ],
  };
}

/**
 * Builds the browser assets into `<out>/assets` and writes `<out>/manifest.json`; files of
 * earlier builds are removed.
 * @param {object} [options]
 * @param {string} [options.root] project root (default: the folder of build.mjs)
 * @param {string} [options.out] build folder, absolute or relative to the root (default `dist`)
 * @param {string[]} [options.islandDirs] folders whose `.tsx` files are islands (default `['islands']`)
 * @param {string} [options.forms] the module whose `FORMS` lists the forms (default the site's: `src/forms/index.ts`)
 * @param {'production'|'development'} [options.mode] production: minified, .br/.gz twins;
 *   development: unminified with source maps, plus the reload client
 * @returns {Promise<{ manifest: BuildManifest, files: string[], ms: number }>} the manifest and the files written
 * @throws Error with esbuild's `errors` when a source does not compile
 */
export async function buildClient({ root = ROOT, out = 'dist', islandDirs = ['islands'], forms = SITE_FORMS, mode = 'production' } = {}) {
  const started = performance.now();
  const production = mode === 'production';
  const outAbs = withRoot(root, out);
  await mkdir(join(outAbs, 'assets'), { recursive: true });
  // The rule lists are derived while esbuild begins (a form island's entry waits for them); React's
  // module is minified and compressed as soon as it is built, while the islands wait for the rules;
  // the images render meanwhile (docs/performance.md §4).
  const { islands, options, checked, react } = await clientBuilds({ root, out: outAbs, islandDirs, production, rules: deriveRules(root, forms) });
  const rendering = buildImages({ root, outAbs });
  rendering.catch(() => {}); // awaited below; a failure of an earlier step is the one reported
  const minified = join(cacheDir(root), 'minified');
  /**
   * A build's outputs as they are served: in production minified again and with their twins.
   * @param {Metafile[]} built
   * @returns {Promise<{ files: string[], names: string[] }>} the outputs (absolute) and their minified copies' names
   */
  const finish = async (built) => {
    const files = built.flatMap((m) => Object.keys(m.outputs)).map((f) => resolve(root, f));
    if (!production) return { files, names: [] };
    const names = await minifyAgain(files, minified);
    await compress(files);
    return { files, names };
  };
  const reactFinished = react?.then(({ metafile }) => finish([metafile]));
  reactFinished?.catch(() => {}); // awaited below, after the islands' build, whose failure comes first
  const [results] = await Promise.all([Promise.all(options.map((o) => esbuild.build(o))), checked]);
  const own = results.map((r) => /** @type {Metafile} */ (r.metafile));
  const finished = await Promise.all([finish(own), ...(reactFinished ? [reactFinished] : [])]);
  /** @type {Metafile[]} */
  const metafiles = [...own, ...(react ? [(await react).metafile] : [])];
  const bundles = finished.flatMap((f) => f.files);
  if (production) await pruneMinified(minified, finished.flatMap((f) => f.names));
  const images = await rendering;
  const { manifest, files } = await writeManifest({ root, out: outAbs, islands, metafiles, images: images.images, production });
  if (production) await compress(files.filter((file) => !bundles.includes(file)));
  // images/ holds the rendered images (buildImages prunes it itself); vendor/ development's React.
  const folders = [imagesOutDir(outAbs), ...(production ? [] : [vendorOutDir(outAbs)])];
  await prune(join(outAbs, 'assets'), [...new Set([...bundles, ...files, ...folders])]);
  return { manifest, files: [...files, ...images.files], ms: Math.round(performance.now() - started) };
}

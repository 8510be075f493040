// Development's React (docs/development.md §1): React and react-dom bundled on their own, once,
// into `<out>/assets/vendor/`, and imported by URL from the development client build. An island's
// rebuild then no longer prints React's chunk and its source map again, and takes a fraction of
// the time (docs/development.md §1). Production imports one module of React's (build/react.mjs), as
// docs/islands.md §4 says.
/** @import { Plugin } from 'esbuild' */
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import * as esbuild from 'esbuild';

/** The modules of React the browser code imports, each served as a module of its own. */
const VENDOR = ['react', 'react/jsx-runtime', 'react-dom', 'react-dom/client'];
const NAMESPACE = 'eiland-vendor';

/**
 * The folder of React's bundles in a development build folder (served as `/assets/vendor/`).
 * @param {string} outAbs the build folder (absolute)
 */
export const vendorOutDir = (outAbs) => join(outAbs, 'assets', 'vendor');

/**
 * Bundles React's modules for the browser (development: unminified, with source maps) into
 * `<outAbs>/assets/vendor/`, with one shared chunk, so every module has one React. Each module
 * exports the names its package exports (read from the package itself) and the package as
 * `default`.
 * @param {{ root: string, outAbs: string }} options
 * @returns {Promise<Record<string, string>>} module name → its URL, e.g. `/assets/vendor/react-<hash>.js`
 * @throws Error with esbuild's `errors` when a module cannot be bundled
 */
export async function buildVendor({ root, outAbs }) {
  const load = createRequire(join(root, 'package.json'));
  const entryName = (/** @type {string} */ module) => module.replace(/\//g, '-');
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(VENDOR.map((module) => [entryName(module), `${NAMESPACE}:${module}`])),
    outdir: vendorOutDir(outAbs),
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    target: 'es2022',
    sourcemap: 'linked',
    define: { 'process.env.NODE_ENV': '"development"' },
    metafile: true,
    logLevel: 'silent',
    plugins: [
      {
        name: NAMESPACE,
        setup(build) {
          build.onResolve({ filter: new RegExp(`^${NAMESPACE}:`) }, (args) => ({ path: args.path.slice(NAMESPACE.length + 1), namespace: NAMESPACE }));
          build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
            resolveDir: root,
            contents: [
              `import * as module from ${JSON.stringify(args.path)};`,
              `export const { ${Object.keys(load(args.path)).join(', ')} } = module;`,
              `export default module.default;`,
            ].join('\n'),
          }));
        },
      },
    ],
  });
  /** @type {Record<string, string>} */
  const urls = {};
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    const module = VENDOR.find((m) => output.entryPoint === `${NAMESPACE}:${m}`);
    if (module) urls[module] = `/${relative(outAbs, join(root, file)).split(sep).join('/')}`;
  }
  return urls;
}

/**
 * The esbuild plugin that leaves React's modules to the bundles of {@link buildVendor}: an import
 * of one becomes an import of its URL.
 * @param {Record<string, string>} urls module name → URL
 * @returns {Plugin}
 */
export function vendorModules(urls) {
  return {
    name: 'eiland-vendor-modules',
    setup(build) {
      build.onResolve({ filter: /^react(-dom)?(\/.*)?$/ }, (args) => (urls[args.path] ? { path: urls[args.path], external: true } : undefined));
    },
  };
}

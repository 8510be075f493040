// Production's React (docs/islands.md §4): react, react-dom and scheduler in one module of their
// own, `react-<hash>.js`, which exports what the browser code imports of React (`REACT_IMPORTS`).
// The islands import it by URL, so its file and size change only with React (or that list), and
// `npm test` tracks it apart from Eiland's own code (docs/performance.md §1). Development imports
// React's own modules instead (build/vendor.mjs).
/** @import { BuildOptions, Metafile, Plugin } from 'esbuild' */
import { basename } from 'node:path';
import * as esbuild from 'esbuild';

/**
 * What the browser code imports of React, by module. An island that imports anything else of
 * React fails the build, naming it: add it here.
 */
export const REACT_IMPORTS = {
  react: ['useEffect', 'useLayoutEffect', 'useRef', 'useState'],
  'react/jsx-runtime': ['Fragment', 'jsx', 'jsxs'],
  'react-dom/client': ['hydrateRoot'],
};

const NAMESPACE = 'eiland-react';
/** The entry point of React's module: a module this file writes. */
const ENTRY = `${NAMESPACE}:`;

/**
 * Each import's name in React's module: a letter or two, not the name itself, which every page
 * with an island would download twice, in the import and in the export (`useLayoutEffect`).
 */
const EXPORTED = new Map(
  Object.values(REACT_IMPORTS)
    .flat()
    .map((name, i) => [name, i < 26 ? String.fromCharCode(97 + i) : `${String.fromCharCode(97 + Math.floor(i / 26) - 1)}${String.fromCharCode(97 + (i % 26))}`]),
);

/**
 * The re-exports of one module of React, under their names in React's module or the other way.
 * @param {keyof typeof REACT_IMPORTS} module
 * @param {'to' | 'from'} way `to` React's module's names (its entry), `from` them (the islands' side)
 */
const reexports = (module, way) => REACT_IMPORTS[module].map((name) => (way === 'to' ? `${name} as ${EXPORTED.get(name)}` : `${EXPORTED.get(name)} as ${name}`)).join(', ');

/**
 * Builds React's module with the options of the islands' build.
 * @param {BuildOptions} options the browser options (root, output folder, minification)
 * @returns {Promise<{ url: string, metafile: Metafile }>} its URL under `/assets/`, and its metafile
 * @throws Error with esbuild's `errors` when React cannot be bundled
 */
export async function buildReact(options) {
  const entry = Object.keys(REACT_IMPORTS).map((module) => `export { ${reexports(/** @type {keyof typeof REACT_IMPORTS} */ (module), 'to')} } from '${module}';`);
  const result = await esbuild.build({
    ...options,
    entryPoints: { react: ENTRY },
    splitting: false,
    plugins: [
      {
        name: NAMESPACE,
        setup(build) {
          build.onResolve({ filter: new RegExp(`^${ENTRY}$`) }, () => ({ path: 'react', namespace: NAMESPACE }));
          build.onLoad({ filter: /.*/, namespace: NAMESPACE }, () => ({ contents: entry.join('\n'), resolveDir: /** @type {string} */ (options.absWorkingDir) }));
        },
      },
    ],
  });
  const metafile = /** @type {Metafile} */ (result.metafile);
  const file = Object.keys(metafile.outputs).find((f) => metafile.outputs[f]?.entryPoint === `${NAMESPACE}:react`);
  if (file === undefined) throw new Error("The React build has no output for React's module");
  return { url: `/assets/${basename(file)}`, metafile };
}

/**
 * Whether an output of a metafile is React's module.
 * @param {Metafile['outputs'][string]} output
 */
export const isReactModule = (output) => output.entryPoint === `${NAMESPACE}:react`;

/**
 * The esbuild plugin that makes every import of React an import of React's module by URL: each of
 * `REACT_IMPORTS`' modules becomes a module that re-exports its names from that URL, so esbuild
 * refuses a name the list does not have, and any other module of React is refused by name.
 * @param {Promise<{ url: string }>} react React's module, once built
 * @returns {Plugin}
 */
export function reactModule(react) {
  return {
    name: 'eiland-react-module',
    setup(build) {
      build.onResolve({ filter: /^react(-dom)?(\/.*)?$/ }, (args) =>
        args.path in REACT_IMPORTS
          ? { path: args.path, namespace: NAMESPACE }
          : { errors: [{ text: `The browser code imports ${args.path}, which is not in React's module: add what it needs to REACT_IMPORTS (build/react.mjs)` }] },
      );
      // The URL those modules import is React's module itself.
      build.onResolve({ filter: /.*/, namespace: NAMESPACE }, (args) => ({ path: args.path, external: true }));
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, async (args) => ({
        contents: `export { ${reexports(/** @type {keyof typeof REACT_IMPORTS} */ (args.path), 'from')} } from ${JSON.stringify((await react).url)};`,
      }));
    },
  };
}

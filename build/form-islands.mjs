// Form islands' entry modules (docs/forms.md §5, §8). The entry of a form island is a module the
// build writes: it registers the island's rule list, derived from its form's DTO, and re-exports
// the island. The list thus lives in that island's chunk and no other (an esbuild `define` of an
// object would be hoisted into a chunk every island shares). It also exports the list and the
// validator the island runs, so the parity test checks every form's shipped list without an
// export written by hand. And it re-exports the island runtime's hydration module: with every
// form island's graph holding react-dom, esbuild puts React and react-dom in one shared chunk,
// which compresses 0.5 KiB gzip better than the two it makes otherwise (docs/islands.md §4); the
// runtime still imports that module itself, on the first trigger.
/** @import { Plugin } from 'esbuild' */
/** @import { FormRules } from '../protocol/rules.js' */
import { join } from 'node:path';

/** The namespace of the generated entries; their path is the island's name. */
const NAMESPACE = 'eiland-form-island';

/**
 * The entry point of an island: its file, or the generated module of a form island.
 * @param {string} name the island's name
 * @param {string} file its source, relative to the root
 * @param {Record<string, FormRules>} lists island name → rule list
 */
export function islandEntry(name, file, lists) {
  return lists[name] ? `${NAMESPACE}:${name}` : file;
}

/**
 * The esbuild plugin that writes the form islands' entries.
 * @param {string} root the project root
 * @param {Record<string, string>} islands island name → source, relative to the root
 * @param {Record<string, FormRules>} lists island name → rule list
 * @returns {Plugin}
 */
export function formIslands(root, islands, lists) {
  return {
    name: 'eiland-form-islands',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${NAMESPACE}:`) }, (args) => ({ path: args.path.slice(NAMESPACE.length + 1), namespace: NAMESPACE }));
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        const source = islands[args.path];
        const rules = lists[args.path];
        if (!source || !rules) return { errors: [{ text: `No form island "${args.path}"` }] };
        return {
          resolveDir: root,
          loader: 'ts',
          contents: [
            `import { registerFormRules } from './islands/lib/forms/rules.ts';`,
            `export { validateValues } from './islands/lib/validate.ts';`,
            `export { hydrate } from './islands/runtime/hydrate.ts';`,
            `export { default } from ${JSON.stringify(`./${source.split('\\').join('/')}`)};`,
            `export const rules = ${JSON.stringify(rules)};`,
            `registerFormRules(${JSON.stringify(args.path)}, rules);`,
          ].join('\n'),
        };
      });
    },
  };
}

/**
 * The island sources whose form has no rule list, for a clear build error: a form island always
 * has one (its form is listed in src/forms/index.ts).
 * @param {Record<string, string>} islands
 * @param {Record<string, FormRules>} lists
 */
export function unknownFormIslands(islands, lists) {
  return Object.keys(lists).filter((name) => !islands[name]).map((name) => join('islands', `${name}.tsx`));
}

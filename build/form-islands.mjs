// Islands' entry modules (docs/forms.md §5, §8, §10). Every island's entry is a module the build
// writes, so the build can begin before the rule lists are derived (docs/performance.md §4): the
// entry of a form island waits for them. It registers the island's rule list, derived from its
// form's DTO, and the checks of the rules that list names, and re-exports the island. The list
// thus lives in that island's module and no other (an esbuild `define` of an object would be
// hoisted into every module), and a check only one form uses is in that form's module alone. It
// also exports the list and the validator the island runs, so the parity test checks every
// form's shipped list without an export written by hand. Every entry re-exports a hydration
// function, which the runtime calls from the island's module, so the runtime imports no React of
// its own (docs/islands.md §4): a form island's reads back from its markup what its page left
// out of its props (docs/forms.md §5), any other island's is the runtime's own.
/** @import { Plugin } from 'esbuild' */
/** @import { FormRules } from '../protocol/rules.js' */
/** @import { DerivedRules } from './rules.mjs' */
import { join } from 'node:path';

/** The namespace of the generated entries; their path is the island's name. */
const NAMESPACE = 'eiland-island';

/**
 * The entry point of an island: the module this plugin writes for it.
 * @param {string} name the island's name
 */
export function islandEntry(name) {
  return `${NAMESPACE}:${name}`;
}

/**
 * A form island's entry: its rule list and the checks it names, registered before the island
 * hydrates, and the island.
 * @param {string} island the island's name
 * @param {string} module the island's module, as the entry imports it
 * @param {FormRules} rules its form's rule list
 * @param {Record<string, string>} checks rule name → the module of its check, relative to the root
 */
function formEntry(island, module, rules, checks) {
  return [
    ...checkRegistration(rules, './islands/lib', '.ts', (name) => `./${checks[name]}`),
    `import { registerFormRules } from './islands/lib/forms/rules.ts';`,
    `export { validateValues } from './islands/lib/validate.ts';`,
    `export { hydrateForm as hydrate } from './islands/lib/forms/hydrate.ts';`,
    `export { default } from ${module};`,
    `export const rules = ${JSON.stringify(rules)};`,
    `registerFormRules(${JSON.stringify(island)}, rules);`,
  ].join('\n');
}

/**
 * The lines of a module that imports the check of each rule a rule list names and registers them
 * for the browser's validation (docs/forms.md §10): a form island's entry begins with them, and
 * the benchmark's peers write them for the island they render (bench/next/write-rules.mjs).
 * @param {FormRules} rules the form's rule list
 * @param {string} lib `islands/lib` as the module imports it, e.g. `./islands/lib`
 * @param {'.ts' | '.js'} extension of the specifiers, as the module's bundler resolves them
 * @param {(name: string) => string} [moduleOf] a rule's module as the module imports it (default:
 *   the rule's module in `<lib>/rules/`; a form's own rule is elsewhere, docs/forms.md §10)
 * @returns {string[]}
 */
export function checkRegistration(rules, lib, extension, moduleOf = (name) => `${lib}/rules/${name}${extension}`) {
  const names = [...new Set(Object.values(rules).flatMap((field) => field.rules.map((rule) => rule.name)))].sort();
  return [
    ...names.map((name, i) => `import { check as c${i} } from '${moduleOf(name)}';`),
    `import { registerChecks } from '${lib}/validate${extension}';`,
    `registerChecks({ ${names.map((name, i) => `${JSON.stringify(name)}: c${i}`).join(', ')} });`,
  ];
}

/**
 * The esbuild plugin that writes the islands' entries.
 * @param {string} root the project root
 * @param {Record<string, string>} islands island name → source, relative to the root
 * @param {Promise<DerivedRules>} derived the forms' rule lists and their rules' modules, once derived
 * @returns {Plugin}
 */
export function formIslands(root, islands, derived) {
  return {
    name: 'eiland-form-islands',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${NAMESPACE}:`) }, (args) => ({ path: args.path.slice(NAMESPACE.length + 1), namespace: NAMESPACE }));
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, async (args) => {
        const source = islands[args.path];
        if (!source) return { errors: [{ text: `No island "${args.path}"` }] };
        const module = JSON.stringify(`./${source.split('\\').join('/')}`);
        const { lists, checks } = await derived;
        const rules = lists[args.path];
        return {
          resolveDir: root,
          loader: 'ts',
          contents: rules ? formEntry(args.path, module, rules, checks) : `export * from ${module};\nexport { default } from ${module};\nexport { hydrate } from './islands/runtime/hydrate.ts';`,
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

// Every form's browser rule list (docs/forms.md §5, §8), derived at build time from its DTO's
// class-validator metadata, for each form island's chunk.
/** @import { FormRules } from '../protocol/rules.js' */
/** @typedef {{ lists: Record<string, FormRules>, checks: Record<string, string> }} DerivedRules island name → its form's rule list; rule name → the module of its check, relative to the root */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { inputsOf, writeAtomically } from './files.mjs';
import { cacheDir, SOURCES } from './paths.mjs';
import { packageExternals } from './server.mjs';

/**
 * The content hash of each file, for the rule lists' cache: the local sources the derivation
 * read, and the lock file (the packages it read: class-validator, class-transformer).
 * @param {string[]} files
 * @returns {Promise<Record<string, string>>}
 */
async function hashes(files) {
  return Object.fromEntries(await Promise.all(files.map(async (f) => [f, createHash('sha256').update(await readFile(f).catch(() => '')).digest('base64url')])));
}

/** @param {string} root */
const lockFile = (root) => join(root, 'package-lock.json');

/** The module whose `FORMS` lists the site's forms. */
export const SITE_FORMS = 'src/forms/index.ts';

/**
 * The derivation needs the forms' DTOs, not their pages: a component (a `.tsx` module: an island,
 * a view) is read as an empty module, so the derivation evaluates no UI and an edit to one does
 * not derive the lists again.
 * @type {esbuild.Plugin}
 */
const withoutComponents = {
  name: 'eiland-rules-without-components',
  setup(build) {
    build.onResolve({ filter: /\.(?:tsx|jsx?)$/ }, async (args) => {
      if (args.pluginData === 'component') return undefined;
      const found = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'component' });
      return found.path.endsWith('.tsx') ? { path: found.path, namespace: 'component' } : found;
    });
    // A CommonJS module: any named import of it is allowed, and undefined.
    build.onLoad({ filter: /.*/, namespace: 'component' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
  },
};

/**
 * The module of each rule the lists name, whose `check` a form island's entry imports
 * (docs/forms.md §10): the rule's module in islands/lib/rules/, else the one source of the
 * derivation named by the rule (a custom rule a form brings of its own, beside it).
 * @param {string} root the project root
 * @param {Record<string, FormRules>} lists island name → rule list
 * @param {string[]} inputs the derivation's sources, absolute
 * @returns {Record<string, string>} rule name → its module, relative to the root (`islands/lib/rules/isIn.ts`)
 * @throws Error naming a rule that has no such module, or more than one
 */
export function checkModules(root, lists, inputs) {
  const names = [...new Set(Object.values(lists).flatMap((list) => Object.values(list).flatMap((field) => field.rules.map((rule) => rule.name))))].sort();
  return Object.fromEntries(
    names.map((name) => {
      const named = inputs.map((file) => relative(root, file).split('\\').join('/')).filter((file) => basename(file) === `${name}.ts`);
      const shared = named.find((file) => file === `islands/lib/rules/${name}.ts`);
      if (shared === undefined && named.length !== 1) {
        throw new Error(`The rule "${name}" needs one module named ${name}.ts among the forms' sources (docs/forms.md §10), found ${named.length === 0 ? 'none' : named.join(', ')}`);
      }
      return [name, /** @type {string} */ (shared ?? named[0])];
    }),
  );
}

/**
 * Evaluates every form's rule list at build time, for the client build to embed in each form
 * island's chunk. The result is cached in the project's own cache folder (`cacheDir`), keyed on everything it
 * read: every local source the derivation bundled (the forms registry, each DTO, the catalogue)
 * and the lock file; a change to any of them derives again.
 * @param {string} root the project root
 * @param {string} [forms] the module whose export `FORMS` lists the forms, relative to the root
 *   (default: the site's, `src/forms/index.ts`; the tests' build gives test/fixtures/forms.ts)
 * @returns {Promise<DerivedRules & { inputs: string[] }>} island name → its rule list, rule name →
 *   the module of its check, and the sources they were derived from (absolute paths)
 * @throws Error with esbuild's `errors` when a DTO does not compile; Error when a rule has no module (`checkModules`)
 */
export async function deriveRules(root, forms = SITE_FORMS) {
  const cacheFile = join(cacheDir(root), `form-rules-${createHash('sha256').update(forms).digest('base64url').slice(0, 8)}.json`);
  /** @type {{ sources: Record<string, string> } & DerivedRules | undefined} */
  const cached = await readFile(cacheFile, 'utf8').then(JSON.parse, () => undefined);
  if (cached?.checks && JSON.stringify(await hashes(Object.keys(cached.sources))) === JSON.stringify(cached.sources)) {
    return { lists: cached.lists, checks: cached.checks, inputs: Object.keys(cached.sources).filter((f) => f !== lockFile(root)) };
  }
  const result = await esbuild.build({
    absWorkingDir: root,
    stdin: {
      contents: `import { FORMS } from ${JSON.stringify(`./${forms}`)};\nimport { ruleLists } from ${JSON.stringify(`./${SOURCES.rules}`)};\nexport const BROWSER_RULE_LISTS = ruleLists(FORMS);`,
      resolveDir: root,
      sourcefile: 'form-rules.ts',
      loader: 'ts',
    },
    tsconfig: join(root, 'tsconfig.json'), // a stdin entry finds none of its own
    plugins: [withoutComponents],
    bundle: true,
    platform: 'node',
    format: 'esm',
    external: packageExternals(root), // class-validator from node_modules, as the server runs it
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  // A module file inside the project, so its package imports resolve from node_modules.
  await mkdir(dirname(cacheFile), { recursive: true });
  const file = join(dirname(cacheFile), `rules-${process.pid}-${Date.now()}.mjs`);
  await writeFile(file, result.outputFiles[0]?.text ?? '');
  try {
    /** @type {{ BROWSER_RULE_LISTS: Record<string, FormRules> }} */
    const { BROWSER_RULE_LISTS: lists } = await import(pathToFileURL(file).href);
    const inputs = inputsOf(root, result.metafile).filter((file) => !file.startsWith('component:') && !file.endsWith('.tsx') && !/(?:form-rules\.ts|<stdin>)$/.test(file));
    const checks = checkModules(root, lists, inputs);
    await writeAtomically(cacheFile, JSON.stringify({ sources: await hashes([...inputs, lockFile(root)]), lists, checks }));
    return { lists, checks, inputs };
  } finally {
    await rm(file, { force: true });
  }
}

// Every form's browser rule list (docs/forms.md §5, §8), derived at build time from its DTO's
// class-validator metadata, for each form island's chunk.
/** @import { FormRules } from '../protocol/rules.js' */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
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
 * Evaluates every form's rule list at build time, for the client build to embed in each form
 * island's chunk. The result is cached in the project's own cache folder (`cacheDir`), keyed on everything it
 * read: every local source the derivation bundled (the forms registry, each DTO, the catalogue)
 * and the lock file; a change to any of them derives again.
 * @param {string} root the project root
 * @param {string} [forms] the module whose export `FORMS` lists the forms, relative to the root
 *   (default: the site's, `src/forms/index.ts`; the tests' build gives test/fixtures/forms.ts)
 * @returns {Promise<{ lists: Record<string, FormRules>, inputs: string[] }>} island name → its
 *   rule list, and the sources they were derived from (absolute paths)
 * @throws Error with esbuild's `errors` when a DTO does not compile
 */
export async function deriveRules(root, forms = SITE_FORMS) {
  const cacheFile = join(cacheDir(root), `form-rules-${createHash('sha256').update(forms).digest('base64url').slice(0, 8)}.json`);
  /** @type {{ sources: Record<string, string>, lists: Record<string, FormRules> } | undefined} */
  const cached = await readFile(cacheFile, 'utf8').then(JSON.parse, () => undefined);
  if (cached && JSON.stringify(await hashes(Object.keys(cached.sources))) === JSON.stringify(cached.sources)) {
    return { lists: cached.lists, inputs: Object.keys(cached.sources).filter((f) => f !== lockFile(root)) };
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
    await writeAtomically(cacheFile, JSON.stringify({ sources: await hashes([...inputs, lockFile(root)]), lists }));
    return { lists, inputs };
  } finally {
    await rm(file, { force: true });
  }
}

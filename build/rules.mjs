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

/**
 * Evaluates every form's rule list at build time, for the client build to embed in each form
 * island's chunk. The result is cached in the project's own cache folder (`cacheDir`), keyed on everything it
 * read: every local source the derivation bundled (the forms registry, each DTO, the catalogue)
 * and the lock file; a change to any of them derives again.
 * @param {string} root the project root
 * @returns {Promise<{ lists: Record<string, FormRules>, inputs: string[] }>} island name → its
 *   rule list, and the sources they were derived from (absolute paths)
 * @throws Error with esbuild's `errors` when a DTO does not compile
 */
export async function deriveRules(root) {
  const cacheFile = join(cacheDir(root), 'form-rules.json');
  /** @type {{ sources: Record<string, string>, lists: Record<string, FormRules> } | undefined} */
  const cached = await readFile(cacheFile, 'utf8').then(JSON.parse, () => undefined);
  if (cached && JSON.stringify(await hashes(Object.keys(cached.sources))) === JSON.stringify(cached.sources)) {
    return { lists: cached.lists, inputs: Object.keys(cached.sources).filter((f) => f !== lockFile(root)) };
  }
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [SOURCES.rules],
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
    const inputs = inputsOf(root, result.metafile);
    await writeAtomically(cacheFile, JSON.stringify({ sources: await hashes([...inputs, lockFile(root)]), lists }));
    return { lists, inputs };
  } finally {
    await rm(file, { force: true });
  }
}

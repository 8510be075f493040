// The registration form's browser rule list (docs/forms.md §5), derived at build time from the
// DTO's class-validator metadata and embedded in the island's chunk.
/** @import { FormRules } from '../protocol/rules.js' */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { inputsOf, writeAtomically } from './files.mjs';
import { SOURCES } from './paths.mjs';

/**
 * The content hash of each file, for the rule list's cache.
 * @param {string[]} files
 * @returns {Promise<Record<string, string>>}
 */
async function hashes(files) {
  return Object.fromEntries(await Promise.all(files.map(async (f) => [f, createHash('sha256').update(await readFile(f).catch(() => '')).digest('base64url')])));
}

/**
 * Evaluates the registration form's rule list at build time, for the client build to embed in the
 * island's chunk. The result is cached in `node_modules/.cache/eiland/` while none of the sources
 * it was derived from changes.
 * @param {string} root the project root
 * @returns {Promise<{ rules: FormRules, inputs: string[] }>} the rule list and the sources it was derived from (absolute paths)
 * @throws Error with esbuild's `errors` when the DTO does not compile
 */
export async function deriveRules(root) {
  const cacheFile = join(root, 'node_modules', '.cache', 'eiland', 'registration-rules.json');
  /** @type {{ sources: Record<string, string>, rules: FormRules } | undefined} */
  const cached = await readFile(cacheFile, 'utf8').then(JSON.parse, () => undefined);
  if (cached && JSON.stringify(await hashes(Object.keys(cached.sources))) === JSON.stringify(cached.sources)) {
    return { rules: cached.rules, inputs: Object.keys(cached.sources) };
  }
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [SOURCES.rules],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external', // class-validator from node_modules, as the server runs it
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  // A module file inside the project, so its package imports resolve from node_modules.
  await mkdir(dirname(cacheFile), { recursive: true });
  const file = join(dirname(cacheFile), `rules-${process.pid}-${Date.now()}.mjs`);
  await writeFile(file, result.outputFiles[0]?.text ?? '');
  try {
    /** @type {{ REGISTRATION_RULES: FormRules }} */
    const { REGISTRATION_RULES: rules } = await import(pathToFileURL(file).href);
    const inputs = inputsOf(root, result.metafile);
    await writeAtomically(cacheFile, JSON.stringify({ sources: await hashes(inputs), rules }));
    return { rules, inputs };
  } finally {
    await rm(file, { force: true });
  }
}

// Writing build output safely, and removing what older builds left.
import { readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * Writes a file whole or not at all: a crash never leaves half a file that a later build trusts.
 * @param {string} file
 * @param {string | Uint8Array} data
 */
export async function writeAtomically(file, data) {
  await writeFile(`${file}.tmp`, data);
  await rename(`${file}.tmp`, file);
}

/**
 * Removes from `dir` every file and folder that is not one of `keep` or its `.br`/`.gz` twin
 * (e.g. the React bundles of a development build, before a production build into the same folder).
 * @param {string} dir
 * @param {string[]} keep absolute paths
 */
export async function prune(dir, keep) {
  const wanted = new Set(keep.flatMap((file) => [file, `${file}.br`, `${file}.gz`]));
  const present = await readdir(dir);
  await Promise.all(present.map((name) => join(dir, name)).filter((file) => !wanted.has(file)).map((file) => rm(file, { force: true, recursive: true })));
}

/**
 * The sources a build read, as absolute paths, from its metafile (packages left out).
 * @param {string} root the root the metafile's paths are relative to
 * @param {import('esbuild').Metafile} metafile
 * @returns {string[]}
 */
export function inputsOf(root, metafile) {
  return Object.keys(metafile.inputs)
    .filter((file) => !file.includes('node_modules'))
    .map((file) => resolve(root, file));
}

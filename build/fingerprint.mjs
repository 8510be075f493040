// Whether `dist/` is already the build of these sources (docs/development.md §5): `npm start`
// builds first, and a start after no change skips the build instead of doing it again.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { writeAtomically } from './files.mjs';
import { SERVER_ENTRY, withRoot } from './paths.mjs';

/** What every build reads besides its island folders: the sources, the build, the locked packages. */
export const INPUTS = ['build.mjs', 'package.json', 'package-lock.json', 'tsconfig.json', 'build', 'src', 'views', 'protocol', 'islands', 'images'];

/** The fingerprint's file in the build folder. */
export const FINGERPRINT_FILE = 'build-fingerprint';

/**
 * Every file below a path (the path itself when it is a file), sorted; none when it is missing.
 * @param {string} path absolute
 * @returns {Promise<string[]>}
 */
async function filesBelow(path) {
  const entries = await readdir(path, { withFileTypes: true, recursive: true }).catch((/** @type {NodeJS.ErrnoException} */ error) => {
    if (error.code === 'ENOTDIR') return null;
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  if (entries === null) return [path];
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/**
 * The fingerprint of a build: its options, Node's version, and the content of every file it
 * reads (the packages through the lock file).
 * @param {string} root the project root
 * @param {{ islandDirs: string[], forms?: string } & Record<string, unknown>} options the build's options as the
 *   command line gives them (each island folder is read too, and the folder of a forms module)
 * @returns {Promise<string>}
 */
export async function fingerprint(root, options) {
  const paths = [...new Set([...INPUTS, ...options.islandDirs, ...(options.forms ? [dirname(options.forms)] : [])])].map((path) => withRoot(root, path));
  const files = [...new Set((await Promise.all(paths.map(filesBelow))).flat())].sort();
  const contents = await Promise.all(files.map((file) => readFile(file))); // read at once, hashed in order
  const hash = createHash('sha256').update(JSON.stringify({ options, node: process.version }));
  files.forEach((file, i) => hash.update(`\0${relative(root, file)}\0`).update(/** @type {Buffer} */ (contents[i])));
  return hash.digest('base64url');
}

/**
 * Whether a build folder holds a whole build with this fingerprint.
 * @param {string} out the build folder, absolute
 * @param {string} print
 */
export async function builtAlready(out, print) {
  const recorded = await readFile(join(out, FINGERPRINT_FILE), 'utf8').catch(() => undefined);
  return recorded === print && existsSync(join(out, 'manifest.json')) && existsSync(join(out, SERVER_ENTRY));
}

/**
 * Forgets a build folder's fingerprint (before a build: one that fails leaves none behind), or
 * records it (after a build).
 * @param {string} out the build folder, absolute
 * @param {string} [print] the fingerprint to record; none: forget it
 */
export async function recordFingerprint(out, print) {
  if (print === undefined) await rm(join(out, FINGERPRINT_FILE), { force: true });
  else await writeAtomically(join(out, FINGERPRINT_FILE), print);
}

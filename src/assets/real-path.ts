/**
 * A file below a served folder, as the disk has it (docs/filter.md §8): a symbolic link that
 * leads out of the folder is not there, so a link left in `public/` never serves what lies
 * outside it.
 */
import { realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';

/**
 * The real path of a file below a folder.
 * @param root the served folder
 * @param segments the path below it, decoded, e.g. `['images', 'hero.jpg']`
 * @returns the absolute real path, or undefined when nothing is there or a link leads out of `root`
 */
export async function realPathInside(root: string, segments: readonly string[]): Promise<string | undefined> {
  try {
    const [base, file] = await Promise.all([realpath(root), realpath(join(root, ...segments))]);
    return file.startsWith(base + sep) ? file : undefined;
  } catch {
    return undefined; // ENOENT, ENOTDIR, …: not below this folder
  }
}

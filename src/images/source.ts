/**
 * Finds the file behind an image `url` (docs/images.md §4): `images/` of the build output
 * (content-hashed names) first, then `images/` of the public folder, as `/assets/` serves them.
 */
import { stat } from 'node:fs/promises';
import { realPathInside } from '../assets/real-path.js';

/** A folder served as `/assets/images/`. */
export interface ImageRoot {
  dir: string;
  /** Its file names carry a content hash: answers may be cached for a year. */
  hashed: boolean;
}

/** A source file found. */
export interface ImageSource {
  /** Absolute path. */
  file: string;
  hashed: boolean;
  /** In bytes. */
  size: number;
  /** Modification time, in ms since the epoch (part of the variant's identity). */
  mtimeMs: number;
}

/**
 * The first regular file at `path` below one of the roots; a path that leaves its root by a
 * link is not there.
 * @param roots searched in order
 * @param path below `/assets/images/`, decoded and checked (see `parseImageParams`)
 * @returns the source, or undefined when no root has it
 */
export async function findSource(roots: readonly ImageRoot[], path: string): Promise<ImageSource | undefined> {
  // `join` drops empty segments: `photo.jpg/` would be served as `photo.jpg`. A file has no slash after its name.
  if (path.split('/').includes('')) return undefined;
  for (const root of roots) {
    const file = await realPathInside(root.dir, path.split('/'));
    if (file === undefined) continue; // not in this root: try the next
    const info = await stat(file).catch(() => undefined);
    if (info?.isFile()) return { file, hashed: root.hashed, size: info.size, mtimeMs: info.mtimeMs };
  }
  return undefined;
}

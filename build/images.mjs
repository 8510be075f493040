// The build's images (docs/images.md §3): each `images/<name>.svg` is rendered with
// sharp, at the SVG's own size, to `<out>/assets/images/<name>-<HASH>.jpg`. The hash covers the
// SVG and the render settings, so an unchanged image is not rendered again (a large one takes
// about a second) and its URL can be cached for a year. Files of earlier builds are removed.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
/** @import { BuiltImage } from '../protocol/manifest.js' */
import { SOURCES } from './paths.mjs';

/**
 * How each SVG becomes a raster; part of the output's hash. Baseline, not progressive: the image
 * optimizer decodes a baseline JPEG in strips, while a progressive one is decoded whole into
 * memory first (+30 MB for the 3840-pixel hero per job; docs/images.md §3). mozjpeg's trellis
 * quantisation keeps the file small all the same.
 */
const JPEG = { quality: 82, trellisQuantisation: true, overshootDeringing: true, quantisationTable: 3, optimiseCoding: true, progressive: false };

/**
 * A content hash in esbuild's alphabet and length (8 characters, A–Z and 2–7).
 * @param {...(string | Uint8Array)} parts
 */
function contentHash(...parts) {
  const digest = createHash('sha256');
  for (const part of parts) digest.update(part);
  const bytes = digest.digest();
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  return Array.from(bytes.subarray(0, 8), (b) => alphabet[b & 31]).join('');
}

/**
 * The folder of the rendered images in a build folder (served as `/assets/images/`).
 * @param {string} outAbs the build folder (absolute)
 */
export const imagesOutDir = (outAbs) => join(outAbs, 'assets', 'images');

/**
 * Renders the project's SVG images into `<outAbs>/assets/images/`.
 * @param {object} options
 * @param {string} options.root project root
 * @param {string} options.outAbs build folder (absolute)
 * @returns {Promise<{ images: Record<string, BuiltImage>, files: string[], inputs: string[] }>}
 *   the manifest's `images` (by source name), the files written or kept (absolute) and the sources read
 * @throws Error naming the file when an SVG cannot be rendered
 */
export async function buildImages({ root, outAbs }) {
  // sharp loads here, not with the build: its loading need not delay esbuild's start
  // (docs/performance.md §4).
  const { default: sharp } = await import('sharp');
  const settings = JSON.stringify({ format: 'jpeg', ...JPEG, sharp: sharp.versions.sharp });
  const sourceDir = join(root, SOURCES.images);
  const outDir = imagesOutDir(outAbs);
  await mkdir(outDir, { recursive: true });
  const sources = existsSync(sourceDir) ? (await readdir(sourceDir)).filter((f) => extname(f) === '.svg').sort() : [];
  const built = await Promise.all(
    sources.map(async (file) => {
      const svg = await readFile(join(sourceDir, file));
      const name = basename(file, '.svg');
      const target = join(outDir, `${name}-${contentHash(svg, settings)}.jpg`);
      if (!existsSync(target)) {
        try {
          // A name of this render's own: two builds at once (a watch batch beside the one before it)
          // each write their copy, and the last rename leaves the same bytes.
          const temporary = `${target}.${randomUUID()}.tmp`;
          await sharp(svg).flatten({ background: '#ffffff' }).jpeg(JPEG).toFile(temporary);
          await rename(temporary, target); // whole or not at all
        } catch (cause) {
          throw new Error(`${SOURCES.images}/${file} cannot be rendered: ${/** @type {Error} */ (cause).message}`, { cause });
        }
      }
      const { width, height } = await sharp(target).metadata();
      return { name, target, image: { src: `/assets/images/${basename(target)}`, width: width ?? 0, height: height ?? 0 } };
    }),
  );
  const keep = new Set(built.map((b) => b.target));
  const present = (await readdir(outDir)).map((f) => join(outDir, f));
  // A render still under way in another build (its `.tmp`) is its own; everything else not kept goes.
  await Promise.all(present.filter((f) => !keep.has(f) && !f.endsWith('.tmp')).map((f) => rm(f, { force: true })));
  return {
    images: Object.fromEntries(built.map((b) => [b.name, b.image])),
    files: [...keep],
    inputs: sources.map((f) => join(sourceDir, f)),
  };
}

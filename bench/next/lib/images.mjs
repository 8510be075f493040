/**
 * The build images of Eiland's manifest (server only), so the start page renders the same hero
 * markup as in Eiland (views/Image.tsx inside BuildImagesContext). Read once per process from
 * `../../dist/manifest.json` (`npm run bench` builds Eiland first).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

let images;

/** The manifest's `images`: name → { src, width, height }. */
export function buildImages() {
  images ??= JSON.parse(readFileSync(resolve(process.cwd(), '../../dist/manifest.json'), 'utf8')).images;
  return images;
}

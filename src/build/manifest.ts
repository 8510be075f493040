/**
 * The build manifest written by `build.mjs` (product.md §5): what a client build produced.
 */
import { readFileSync } from 'node:fs';
import type { RouteKind } from '../shared/route-table.js';

/** A script and the chunks it imports (for `modulepreload`). */
export interface ScriptAsset {
  file: string;
  imports: string[];
}

/** An image the build rendered: its content-hashed URL under `/assets/images/` and size in pixels. */
export interface BuiltImage {
  src: string;
  width: number;
  height: number;
}

/** What a build produced. */
export interface BuildManifest {
  /** Identifies the build (changes with any asset). */
  buildId: string;
  /** URL of the content-hashed public copy of this manifest. */
  url: string;
  /** URL of the stylesheet. */
  styles: string;
  /** The client router: on every page (product.md §7). */
  router: ScriptAsset;
  /** The island runtime: loaded only on pages with islands. */
  runtime: ScriptAsset;
  islands: Record<string, ScriptAsset>;
  /** The images the build rendered (`images/*.svg`), by source name (product.md §10). */
  images: Record<string, BuiltImage>;
  /** Each declared route's kind, islands and every asset it loads. */
  routes: Record<string, { kind: RouteKind; islands: string[]; assets: string[] }>;
  /** The reload client (product.md §11): development builds only. */
  reload?: ScriptAsset;
}

/**
 * Reads and checks a build manifest.
 * @param file path of `manifest.json`
 * @param command the command that writes it, for the message (e.g. `npm run build`)
 * @throws Error naming the file and the command when it is missing or invalid
 */
export function readManifest(file: string, command = 'npm run build'): BuildManifest {
  let parsed: Partial<BuildManifest>;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<BuildManifest>;
  } catch (cause) {
    throw new Error(`Build manifest ${file} is missing or unreadable: run "${command}" first`, { cause });
  }
  if (typeof parsed.buildId !== 'string' || typeof parsed.styles !== 'string' || !parsed.runtime || !parsed.router || !parsed.islands || !parsed.images || !parsed.routes) {
    throw new Error(`Build manifest ${file} is invalid: run "${command}" again`);
  }
  return parsed as BuildManifest;
}

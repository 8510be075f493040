/**
 * The build manifest written by `build.mjs` (product.md §5), read once at
 * start-up, refused when missing or older than the sources it was built from.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RouteKind } from './shared/route-table.js';

/** A script and the chunks it imports (for `modulepreload`). */
export interface ScriptAsset {
  file: string;
  imports: string[];
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
  /** Each declared route's kind, islands and every asset it loads. */
  routes: Record<string, { kind: RouteKind; islands: string[]; assets: string[] }>;
}

/** Sources whose change makes a build stale. */
const SOURCES = ['islands', 'src/shared', 'views/styles.css', 'build.mjs'];

function newestSource(root: string): { file: string; mtimeMs: number } {
  let newest = { file: '', mtimeMs: 0 };
  const visit = (path: string) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else if (stat.mtimeMs > newest.mtimeMs) newest = { file: path, mtimeMs: stat.mtimeMs };
  };
  for (const source of SOURCES) visit(join(root, source));
  return newest;
}

/**
 * Reads and checks the build manifest.
 * @param file path of `manifest.json`
 * @param sourceRoot when given, the project root whose sources must not be newer than the build
 * @throws Error naming the file and the command to run when it is missing, invalid or stale
 */
export function readManifest(file: string, sourceRoot?: string): BuildManifest {
  let parsed: Partial<BuildManifest>;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<BuildManifest>;
  } catch (cause) {
    throw new Error(`Build manifest ${file} is missing or unreadable: run "node build.mjs" first`, { cause });
  }
  if (typeof parsed.buildId !== 'string' || typeof parsed.styles !== 'string' || !parsed.runtime || !parsed.router || !parsed.islands || !parsed.routes) {
    throw new Error(`Build manifest ${file} is invalid: run "node build.mjs" again`);
  }
  if (sourceRoot !== undefined) {
    const newest = newestSource(sourceRoot);
    if (newest.mtimeMs > statSync(file).mtimeMs) {
      throw new Error(`Build manifest ${file} is stale (${newest.file} changed after the build): run "node build.mjs"`);
    }
  }
  return parsed as BuildManifest;
}

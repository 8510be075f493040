// The build manifest (docs/islands.md §4), written from esbuild's metafiles. Its one type is
// the protocol's (protocol/manifest.ts), read by the server and, in part, by the router.
/** @import { BuildManifest, BuiltImage, RouteAssets, ScriptRef } from '../protocol/manifest.js' */
/** @import { RouteDeclaration } from '../protocol/routes.js' */
/** @import { Metafile } from 'esbuild' */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import { writeAtomically } from './files.mjs';
import { SOURCES } from './paths.mjs';
import { isReactModule } from './react.mjs';

/**
 * Writes the build manifest (and its content-hashed public copy) from the metafiles.
 * @param {object} options
 * @param {string} options.root the project root (metafile paths are relative to it)
 * @param {string} options.out the build folder (absolute)
 * @param {Record<string, string>} options.islands island name → source, relative to the root
 * @param {Metafile[]} options.metafiles of the client builds
 * @param {Record<string, BuiltImage>} options.images the rendered images
 * @param {boolean} options.production development builds also list the reload client
 * @returns {Promise<{ manifest: BuildManifest, files: string[] }>} the manifest, and the files written (absolute)
 */
export async function writeManifest({ root, out, islands, metafiles, images, production }) {
  const outdir = join(out, 'assets');
  // Metafile paths are relative to the root; URLs are relative to the output folder.
  /** @param {string} file */
  const urlOf = (file) => `/assets/${relative(outdir, resolve(root, file)).split(sep).join('/')}`;
  /** @type {Metafile['outputs']} */
  const outputs = Object.assign({}, ...metafiles.map((m) => m.outputs));
  /** @param {string} source */
  const outputOf = (source) => {
    const output = Object.keys(outputs).find((file) => outputs[file]?.entryPoint === source);
    if (output === undefined) throw new Error(`The build has no output for ${source}`);
    return output;
  };

  /**
   * Every import of an output, static or dynamic, transitively: what `modulepreload` should
   * fetch (the runtime imports an island's module, with React, only when a trigger fires;
   * preloaded, it is then only evaluated: docs/islands.md §3). An import esbuild left external is
   * React's by its URL: production's module (build/react.mjs) or development's bundles
   * (build/vendor.mjs, whose own imports are not followed).
   * @param {string} file
   * @param {Set<string>} [seen] URLs
   * @returns {string[]}
   */
  const importsOf = (file, seen = new Set()) => {
    for (const imported of outputs[file]?.imports ?? []) {
      const url = imported.external ? imported.path : urlOf(imported.path);
      if ((imported.kind === 'import-statement' || imported.kind === 'dynamic-import') && !seen.has(url)) {
        seen.add(url);
        if (!imported.external) importsOf(imported.path, seen);
      }
    }
    return [...seen];
  };
  /** @param {string} source @returns {ScriptRef} */
  const script = (source) => ({ file: urlOf(outputOf(source)), imports: importsOf(outputOf(source)) });
  const runtime = script(SOURCES.runtime);
  /** @type {Record<string, ScriptRef>} */
  const islandScripts = Object.fromEntries(Object.entries(islands).map(([name, source]) => [name, script(source)]));
  const styles = urlOf(outputOf(SOURCES.styles));

  /** @param {RouteDeclaration} route @param {string} name */
  const islandOf = (route, name) => {
    const found = islandScripts[name];
    if (!found) throw new Error(`Route ${route.path} declares island "${name}", which the build has not bundled`);
    return found;
  };

  // Each route's kind and assets (protocol/routes.json).
  /** @type {RouteDeclaration[]} */
  const declared = JSON.parse(await readFile(join(root, SOURCES.routes), 'utf8'));
  /** @type {Record<string, RouteAssets>} */
  const routes = Object.fromEntries(
    declared.map((route) => {
      const scripts = route.islands.length === 0 ? [] : [runtime, ...route.islands.map((name) => islandOf(route, name))];
      const assets = [...new Set([styles, ...scripts.flatMap((s) => [s.file, ...s.imports])])];
      return [route.path, { kind: route.kind, islands: route.islands, assets }];
    }),
  );

  const react = Object.keys(outputs).find((file) => isReactModule(/** @type {Metafile['outputs'][string]} */ (outputs[file])));
  const content = {
    styles,
    router: script(SOURCES.router),
    runtime,
    islands: islandScripts,
    ...(react === undefined ? {} : { react: urlOf(react) }),
    images,
    routes,
    ...(production ? {} : { reload: script(SOURCES.reload) }),
  };
  const buildId = createHash('sha256').update(JSON.stringify(content)).digest('base64url').slice(0, 12);
  /** @type {BuildManifest} */
  const manifest = { buildId, url: `/assets/manifest-${buildId}.json`, ...content };
  const json = `${JSON.stringify(manifest, null, 2)}\n`;
  await writeFile(join(outdir, basename(manifest.url)), json);
  // Whole or not at all: a server starting meanwhile (npm run dev starts the next one while the
  // client build finishes, docs/development.md §1) reads the last manifest or this one, never half.
  await writeAtomically(join(out, 'manifest.json'), json);
  return { manifest, files: [...Object.keys(outputs).filter((f) => !f.endsWith('.map')).map((f) => resolve(root, f)), join(outdir, basename(manifest.url))] };
}

// The production bundles' second minification (docs/performance.md §1): swc after esbuild.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { minify } from '@swc/core';
import { writeAtomically } from './files.mjs';

const gzipped = promisify(gzip);

/**
 * swc's two ways over an esbuild output, both on ES modules with licence comments (`/*!`) kept
 * (esbuild has moved them to each bundle's `.LEGAL.txt`, build/client.mjs): with two compress
 * passes (best on our own code), and mangling names only (best on react-dom, which esbuild has
 * already compressed: compressed again, it loses the repetition gzip feeds on). Each output
 * keeps the smaller in gzip; both together take a fraction of what terser took
 * (docs/performance.md §1).
 * @type {Array<import('@swc/core').JsMinifyOptions>}
 */
const WAYS = [
  { module: true, ecma: 2020, compress: { passes: 2 }, mangle: true, format: { comments: 'some' } },
  { module: true, ecma: 2020, compress: false, mangle: true, format: { comments: 'some' } },
];

/**
 * The smaller (gzip) of swc's ways over one output.
 * @param {string} source an esbuild output
 * @returns {Promise<string>}
 */
async function smallest(source) {
  const codes = await Promise.all(WAYS.map(async (options) => (await minify(source, options)).code));
  const sizes = await Promise.all(codes.map(async (code) => (await gzipped(code, { level: 9 })).length));
  return /** @type {string} */ (codes[sizes.indexOf(Math.min(...sizes))]);
}

/**
 * Minifies esbuild's JavaScript outputs again with swc, in place. The result of each output is
 * kept in `cacheDir` under a hash of what swc is given (its version, its options and the esbuild
 * output itself: esbuild's file name does not change with every option, e.g. where licence
 * comments go), so a warm build minifies only what changed. A build may call it more than once
 * (React's module as soon as it is built, build/client.mjs), then {@link pruneMinified} once with
 * every name the calls returned.
 * @param {string[]} files absolute paths of esbuild's outputs; only `.js` files are minified
 * @param {string} cacheDir a folder for minified copies (created when missing)
 * @returns {Promise<string[]>} the names in `cacheDir` of these outputs' copies
 * @throws Error from swc when an output does not parse
 */
export async function minifyAgain(files, cacheDir) {
  await mkdir(cacheDir, { recursive: true });
  const version = JSON.parse(await readFile(new URL('../node_modules/@swc/core/package.json', import.meta.url), 'utf8')).version;
  const scripts = files.filter((file) => file.endsWith('.js'));
  return Promise.all(
    scripts.map(async (file) => {
      const source = await readFile(file, 'utf8');
      const name = `${createHash('sha256').update(`${version}\n${JSON.stringify(WAYS)}\n${source}`).digest('hex').slice(0, 32)}.js`;
      const cached = join(cacheDir, name);
      if (existsSync(cached)) await writeAtomically(file, await readFile(cached));
      else {
        const code = await smallest(source);
        await writeFile(cached, code);
        await writeAtomically(file, code);
      }
      return name;
    }),
  );
}

/**
 * Removes the minified copies no output of this build has.
 * @param {string} cacheDir the folder {@link minifyAgain} keeps its copies in
 * @param {Iterable<string>} names every name this build's calls of {@link minifyAgain} returned
 */
export async function pruneMinified(cacheDir, names) {
  const kept = new Set(names);
  for (const name of await readdir(cacheDir)) if (!kept.has(name)) await rm(join(cacheDir, name), { force: true });
}

// The production bundles' second minification (docs/performance.md §6): terser after esbuild.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { minify } from 'terser';
import { writeAtomically } from './files.mjs';

/**
 * terser's options: one compress pass over ES modules, without `reduce_vars`. esbuild minifies in
 * one pass; terser's inlining and dead-code pass takes another 1 KiB gzip off the form page's
 * JavaScript, most of it in react-dom. A second pass and `reduce_vars` cost twice the time for no
 * gain in gzip (react-dom: 2.2 s for 68 047 bytes with them, 1.1 s for 67 717 without;
 * docs/performance.md §6). Licence comments (`/*!`) would stay; esbuild has moved them to each
 * bundle's `.LEGAL.txt` (build/client.mjs).
 * @type {import('terser').MinifyOptions}
 */
const OPTIONS = { module: true, ecma: 2020, compress: { passes: 1, reduce_vars: false }, mangle: true, format: { comments: 'some' } };

/**
 * Minifies esbuild's JavaScript outputs again with terser, in place. The result of each output
 * is kept in `cacheDir` under a hash of what terser is given (its version, its options and the
 * esbuild output itself: esbuild's file name does not change with every option, e.g. where
 * licence comments go), so a warm build minifies only what changed (terser on react-dom takes
 * 1 s); copies no output of this build has are removed.
 * @param {string[]} files absolute paths of esbuild's outputs; only `.js` files are minified
 * @param {string} cacheDir a folder for minified copies (created when missing)
 * @throws Error from terser when an output does not parse
 */
export async function minifyAgain(files, cacheDir) {
  await mkdir(cacheDir, { recursive: true });
  const version = JSON.parse(await readFile(new URL('../node_modules/terser/package.json', import.meta.url), 'utf8')).version;
  const scripts = files.filter((file) => file.endsWith('.js'));
  /** @type {Set<string>} */
  const names = new Set();
  await Promise.all(
    scripts.map(async (file) => {
      const source = await readFile(file, 'utf8');
      const name = `${createHash('sha256').update(`${version}\n${JSON.stringify(OPTIONS)}\n${source}`).digest('hex').slice(0, 32)}.js`;
      names.add(name);
      const cached = join(cacheDir, name);
      if (existsSync(cached)) return writeAtomically(file, await readFile(cached));
      const { code } = await minify(source, OPTIONS);
      if (code === undefined) throw new Error(`terser gave no output for ${file}`);
      await writeFile(cached, code);
      await writeAtomically(file, code);
    }),
  );
  for (const name of await readdir(cacheDir)) if (!names.has(name)) await rm(join(cacheDir, name), { force: true });
}

// Builds the browser assets into dist/ (product.md §5). Islands and the router
// join this build in later issues; for now it bundles the stylesheet.
import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { build } from 'esbuild';

const outdir = 'dist/assets';
const production = process.env.NODE_ENV !== 'development';

// Entry points, name → source.
const entryPoints = {
  styles: 'views/styles.css',
};

await rm('dist', { recursive: true, force: true });
await mkdir(outdir, { recursive: true });

const result = await build({
  entryPoints,
  outdir,
  bundle: true,
  entryNames: '[name]-[hash]', // content hashes: served as immutable
  minify: production,
  metafile: true, // the manifest is written from it
  logLevel: 'warning',
});

const urlOf = (file) => `/${file.replace(/^dist\//, '')}`;
const outputs = Object.entries(result.metafile.outputs);
const entryUrl = (name) => urlOf(outputs.find(([, o]) => o.entryPoint === entryPoints[name])[0]);

const assets = { styles: entryUrl('styles') };
const buildId = createHash('sha256').update(JSON.stringify(assets)).digest('base64url').slice(0, 12);
await writeFile('dist/manifest.json', `${JSON.stringify({ buildId, ...assets }, null, 2)}\n`);
console.log(`build ${buildId}: ${outputs.length} file(s) in ${outdir}`);

// Builds the browser assets (product.md §5): one esbuild entry per island, the
// client router and the island runtime, ESM with code splitting (one shared React chunk),
// content-hashed names, a .br and a .gz beside every file, and the build
// manifest written from the metafile.
//
//   node build.mjs                                  → dist/
//   node build.mjs --islands test/islands --out DIR → also test-only islands, into DIR
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, extname, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const { values: args } = parseArgs({ options: { islands: { type: 'string', multiple: true }, out: { type: 'string' } } });
const out = args.out ?? 'dist';
const outdir = join(out, 'assets');
const production = process.env.NODE_ENV !== 'development';
const started = performance.now();

/** Each `.tsx` directly in an islands folder is one island, named by its file. */
async function islandsIn(dir) {
  const files = (await readdir(dir)).filter((f) => extname(f) === '.tsx');
  return Object.fromEntries(files.map((f) => [basename(f, '.tsx'), join(dir, f)]));
}

const islands = Object.assign({}, ...(await Promise.all(['islands', ...(args.islands ?? [])].map(islandsIn))));
// Entry points, name → source.
const entryPoints = {
  styles: 'views/styles.css',
  'eiland-islands': 'islands/runtime/islands.ts',
  ...islands,
};

await rm(out, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });

const common = {
  outdir,
  bundle: true,
  format: 'esm', // native modules: <script type="module"> and dynamic import()
  entryNames: '[name]-[hash]', // content hashes: served as immutable
  chunkNames: 'chunk-[hash]',
  minify: production,
  legalComments: 'linked', // licence notices in a .LEGAL.txt beside each bundle, not in every download
  target: 'es2022',
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
  metafile: true, // the manifest is written from it
  logLevel: 'warning',
};
const ROUTER = 'islands/runtime/router.ts';
const [result, routerResult] = await Promise.all([
  build({ ...common, entryPoints, splitting: true }), // islands share one React chunk
  // The router is on every page: one self-contained file, no shared chunks to fetch.
  build({ ...common, entryPoints: { 'eiland-router': ROUTER }, splitting: false }),
]);

// Metafile paths are relative to the working directory; URLs are relative to the output.
const urlOf = (file) => `/assets/${relative(resolve(outdir), resolve(file)).split(sep).join('/')}`;
const outputs = { ...result.metafile.outputs, ...routerResult.metafile.outputs };
const outputOf = (source) => Object.keys(outputs).find((file) => outputs[file].entryPoint === source);

/** Every static import of an output, transitively: what `modulepreload` should fetch. */
function importsOf(file, seen = new Set()) {
  for (const imported of outputs[file].imports) {
    if (imported.kind === 'import-statement' && !seen.has(imported.path)) {
      seen.add(imported.path);
      importsOf(imported.path, seen);
    }
  }
  return [...seen].map(urlOf);
}

const script = (source) => ({ file: urlOf(outputOf(source)), imports: importsOf(outputOf(source)) });
const router = script(ROUTER);
const runtime = script(entryPoints['eiland-islands']);
const islandScripts = Object.fromEntries(Object.entries(islands).map(([name, source]) => [name, script(source)]));
const styles = urlOf(outputOf(entryPoints.styles));

// Each route's kind and assets (src/shared/routes.json).
const declared = JSON.parse(await readFile('src/shared/routes.json', 'utf8'));
const routes = Object.fromEntries(
  declared.map((route) => {
    const scripts = route.islands.length === 0 ? [] : [runtime, ...route.islands.map((name) => islandScripts[name])];
    const assets = [...new Set([styles, ...scripts.flatMap((s) => [s.file, ...s.imports])])];
    return [route.path, { kind: route.kind, islands: route.islands, assets }];
  }),
);

const content = { styles, router, runtime, islands: islandScripts, routes };
const hash = createHash('sha256').update(JSON.stringify(content)).digest('base64url');
const buildId = hash.slice(0, 12);
const manifestUrl = `/assets/manifest-${buildId}.json`;
const manifest = { buildId, url: manifestUrl, ...content };
const json = `${JSON.stringify(manifest, null, 2)}\n`;
await writeFile(join(out, 'assets', basename(manifestUrl)), json);
await writeFile(join(out, 'manifest.json'), json);

// Precompressed twins, served by Accept-Encoding.
const files = [...Object.keys(outputs).filter((f) => !f.endsWith('.map')), join(out, 'assets', basename(manifestUrl))];
await Promise.all(
  files.map(async (file) => {
    const data = await readFile(file);
    await writeFile(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    await writeFile(`${file}.gz`, gzipSync(data, { level: 9 }));
  }),
);

console.log(`build ${buildId}: ${files.length} files (+ .br, .gz) in ${outdir}, ${Math.round(performance.now() - started)} ms`);

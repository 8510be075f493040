// The build (product.md §5, §11), as a module and a command line.
//
//   buildClient()  islands, island runtime, router and styles: ESM with code splitting (one
//                  shared React chunk), content-hashed names, .br/.gz twins, and the build
//                  manifest written from the metafile.
//   buildServer()  the server as one esbuild bundle for plain `node` (no tsx at run time).
//   watch()        both, rebuilt on change (development), reporting each result.
//
// Every path is anchored on one project root: this file's folder unless `root` is given.
//
//   node build.mjs                                  → dist/ (client and server, production)
//   node build.mjs --client                         → dist/ (client only)
//   node build.mjs --islands test/islands --out DIR → also test-only islands, into DIR
import { createHash } from 'node:crypto';
import { existsSync, watch as fsWatch } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import * as esbuild from 'esbuild';
import { buildImages, IMAGES_DIR } from './scripts/build-images.mjs';

/** The project root: the folder of this file. */
export const ROOT = fileURLToPath(new URL('.', import.meta.url));

/** The server bundle, relative to the build folder (what `npm start` runs). */
export const SERVER_ENTRY = 'server/main.js';

// Sources, relative to the root.
const STYLES = 'views/styles.css';
const RUNTIME = 'islands/runtime/islands.ts';
const ROUTER = 'islands/runtime/router.ts';
const RELOAD = 'islands/runtime/reload.ts'; // development only (product.md §11)
const ROUTES = 'src/shared/routes.json';
const RULES = 'src/forms/registration-rules.ts'; // evaluated at build time, embedded in the island
const SERVER = 'src/main.ts';

// Packages the server bundle leaves to node_modules at run time, each with its reason.
// (pino-pretty is not among them: the dev runner pretty-prints; the server never loads it.)
const SERVER_EXTERNALS = [
  'better-sqlite3', // a native addon (.node file): it cannot be bundled
  'sharp', // a native addon with libvips beside it; loaded on the first /_image request only
  'pg-native', // pg's optional libpq binding, loaded only when asked for (never): not installed
];

// Development also leaves the largest packages to node_modules, where plain Node loads them about
// as fast as from a bundle: a server rebuild takes ~150 ms instead of ~300 ms, and a restart
// starts that much sooner.
const DEVELOPMENT_EXTERNALS = [...SERVER_EXTERNALS, 'react', 'react-dom', 'class-validator', 'libphonenumber-js', 'pg'];

const withRoot = (root, path) => (isAbsolute(path) ? path : join(root, path));

/** Each `.tsx` directly in an islands folder is one island, named by its file. */
async function islandsIn(dir) {
  const files = (await readdir(dir)).filter((f) => extname(f) === '.tsx');
  return Object.fromEntries(files.map((f) => [basename(f, '.tsx'), join(dir, f)]));
}

/** esbuild options shared by every browser build; `production`: minified, no source maps. */
function browserOptions(root, outdir, production) {
  return {
    absWorkingDir: root, // metafile paths are relative to the root
    outdir,
    bundle: true,
    format: 'esm', // native modules: <script type="module"> and dynamic import()
    entryNames: '[name]-[hash]', // content hashes: served as immutable
    chunkNames: 'chunk-[hash]',
    minify: production,
    sourcemap: production ? false : 'linked', // development only: no sourceMappingURL ships
    legalComments: 'linked', // licence notices in a .LEGAL.txt beside each bundle, not in every download
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
    metafile: true, // the manifest is written from it
    logLevel: 'silent', // errors are reported by the caller (terminal, overlay)
  };
}

/** The content hash of each file, for the rule list's cache. */
async function hashes(files) {
  return Object.fromEntries(await Promise.all(files.map(async (f) => [f, createHash('sha256').update(await readFile(f).catch(() => '')).digest('base64url')])));
}

/**
 * Evaluates the registration form's rule list (derived from the DTO's class-validator
 * metadata) at build time, for the client build to embed in the island's chunk. The result is
 * cached in `node_modules/.cache/eiland/` while none of the sources it was derived from changes.
 * @returns the rule list and the sources it was derived from (absolute paths)
 */
async function deriveRules(root) {
  const cacheFile = join(root, 'node_modules', '.cache', 'eiland', 'registration-rules.json');
  const cached = await readFile(cacheFile, 'utf8').then(JSON.parse, () => undefined);
  if (cached && JSON.stringify(await hashes(Object.keys(cached.sources))) === JSON.stringify(cached.sources)) {
    return { rules: cached.rules, inputs: Object.keys(cached.sources) };
  }
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [RULES],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external', // class-validator from node_modules, as the server runs it
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  // A module file inside the project, so its package imports resolve from node_modules.
  await mkdir(dirname(cacheFile), { recursive: true });
  const file = join(dirname(cacheFile), `rules-${process.pid}-${Date.now()}.mjs`);
  await writeFile(file, result.outputFiles[0].text);
  try {
    const { REGISTRATION_RULES: rules } = await import(pathToFileURL(file).href);
    const inputs = inputsOf(root, result.metafile);
    await writeAtomically(cacheFile, JSON.stringify({ sources: await hashes(inputs), rules }));
    return { rules, inputs };
  } finally {
    await rm(file, { force: true });
  }
}

/**
 * The client build's two esbuild option sets: islands + runtime + styles with code splitting
 * (one shared React chunk), and the router alone (on every page: one self-contained file).
 */
async function clientBuilds({ root, out, islandDirs, production, rules }) {
  const islands = Object.assign({}, ...(await Promise.all(islandDirs.map((dir) => islandsIn(withRoot(root, dir))))));
  const relativeIslands = Object.fromEntries(Object.entries(islands).map(([name, file]) => [name, relative(root, file)]));
  const outdir = join(out, 'assets');
  const common = browserOptions(root, outdir, production);
  // The rule list lives in the island's chunk (islands/RegistrationForm.tsx), not in its props.
  common.define['globalThis.EILAND_REGISTRATION_RULES'] = JSON.stringify(rules);
  const entryPoints = { styles: STYLES, 'eiland-islands': RUNTIME, ...relativeIslands };
  const routerEntries = { 'eiland-router': ROUTER, ...(production ? {} : { 'eiland-reload': RELOAD }) };
  return {
    islands: relativeIslands,
    options: [
      { ...common, entryPoints, splitting: true },
      { ...common, entryPoints: routerEntries, splitting: false },
    ],
  };
}

/**
 * Writes the build manifest (and its content-hashed public copy) from the metafiles.
 * @returns the manifest object
 */
async function writeManifest({ root, out, islands, metafiles, images, production }) {
  const outdir = join(out, 'assets');
  // Metafile paths are relative to the root; URLs are relative to the output folder.
  const urlOf = (file) => `/assets/${relative(outdir, resolve(root, file)).split(sep).join('/')}`;
  const outputs = Object.assign({}, ...metafiles.map((m) => m.outputs));
  const outputOf = (source) => Object.keys(outputs).find((file) => outputs[file].entryPoint === source);

  /** Every static import of an output, transitively: what `modulepreload` should fetch. */
  const importsOf = (file, seen = new Set()) => {
    for (const imported of outputs[file].imports) {
      if (imported.kind === 'import-statement' && !seen.has(imported.path)) {
        seen.add(imported.path);
        importsOf(imported.path, seen);
      }
    }
    return [...seen].map(urlOf);
  };
  const script = (source) => ({ file: urlOf(outputOf(source)), imports: importsOf(outputOf(source)) });
  const runtime = script(RUNTIME);
  const islandScripts = Object.fromEntries(Object.entries(islands).map(([name, source]) => [name, script(source)]));
  const styles = urlOf(outputOf(STYLES));

  // Each route's kind and assets (src/shared/routes.json).
  const declared = JSON.parse(await readFile(join(root, ROUTES), 'utf8'));
  const routes = Object.fromEntries(
    declared.map((route) => {
      const scripts = route.islands.length === 0 ? [] : [runtime, ...route.islands.map((name) => islandScripts[name])];
      const assets = [...new Set([styles, ...scripts.flatMap((s) => [s.file, ...s.imports])])];
      return [route.path, { kind: route.kind, islands: route.islands, assets }];
    }),
  );

  const content = { styles, router: script(ROUTER), runtime, islands: islandScripts, images, routes, ...(production ? {} : { reload: script(RELOAD) }) };
  const buildId = createHash('sha256').update(JSON.stringify(content)).digest('base64url').slice(0, 12);
  const manifest = { buildId, url: `/assets/manifest-${buildId}.json`, ...content };
  const json = `${JSON.stringify(manifest, null, 2)}\n`;
  await writeFile(join(outdir, basename(manifest.url)), json);
  await writeFile(join(out, 'manifest.json'), json);
  return { manifest, files: [...Object.keys(outputs).filter((f) => !f.endsWith('.map')).map((f) => resolve(root, f)), join(outdir, basename(manifest.url))] };
}

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Writes a file whole or not at all: a crash never leaves half a twin that a later build trusts. */
async function writeAtomically(file, data) {
  await writeFile(`${file}.tmp`, data);
  await rename(`${file}.tmp`, file);
}

/**
 * Precompressed twins, served by Accept-Encoding (production; development serves plain files).
 * Every name carries its content hash, so a twin already beside its file is that file's twin:
 * only new files are compressed (brotli at quality 11 is most of a build). Asynchronous zlib
 * runs on libuv's thread pool, so the files compress in parallel.
 */
async function compress(files) {
  await Promise.all(
    files.map(async (file) => {
      if (existsSync(`${file}.br`) && existsSync(`${file}.gz`)) return;
      const data = await readFile(file);
      const [br, gzipped] = await Promise.all([brotli(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }), gz(data, { level: 9 })]);
      await Promise.all([writeAtomically(`${file}.br`, br), writeAtomically(`${file}.gz`, gzipped)]);
    }),
  );
}

/** Removes from `dir` every file that is not one of `keep` or its twin: what older builds left. */
async function prune(dir, keep) {
  const wanted = new Set(keep.flatMap((file) => [file, `${file}.br`, `${file}.gz`]));
  const present = await readdir(dir);
  await Promise.all(present.map((name) => join(dir, name)).filter((file) => !wanted.has(file)).map((file) => rm(file, { force: true })));
}

/**
 * Builds the browser assets into `<out>/assets` and writes `<out>/manifest.json`; files of
 * earlier builds are removed.
 * @param {object} [options]
 * @param {string} [options.root] project root (default: this file's folder)
 * @param {string} [options.out] build folder, absolute or relative to the root (default `dist`)
 * @param {string[]} [options.islandDirs] folders whose `.tsx` files are islands (default `['islands']`)
 * @param {'production'|'development'} [options.mode] production: minified, .br/.gz twins;
 *   development: unminified with source maps, plus the reload client
 * @returns {Promise<{ manifest: object, files: string[], ms: number }>} the manifest and the files written
 * @throws Error with esbuild's `errors` when a source does not compile
 */
export async function buildClient({ root = ROOT, out = 'dist', islandDirs = ['islands'], mode = 'production' } = {}) {
  const started = performance.now();
  const production = mode === 'production';
  const outAbs = withRoot(root, out);
  await mkdir(join(outAbs, 'assets'), { recursive: true });
  const { rules } = await deriveRules(root);
  const { islands, options } = await clientBuilds({ root, out: outAbs, islandDirs, production, rules });
  const [images, ...results] = await Promise.all([buildImages({ root, outAbs }), ...options.map((o) => esbuild.build(o))]);
  const metafiles = results.map((r) => r.metafile);
  const { manifest, files } = await writeManifest({ root, out: outAbs, islands, metafiles, images: images.images, production });
  if (production) await compress(files);
  const written = metafiles.flatMap((m) => Object.keys(m.outputs)).map((f) => resolve(root, f));
  // images/ holds the rendered images; buildImages prunes it itself.
  await prune(join(outAbs, 'assets'), [...new Set([...written, ...files, join(outAbs, 'assets', IMAGES_DIR)])]);
  return { manifest, files: [...files, ...images.files], ms: Math.round(performance.now() - started) };
}

// Stands for the client build id in the server bundle until the client build has finished, so
// both build at once; as long as a build id, so the source map's columns stay true.
const BUILD_ID_PLACEHOLDER = '@'.repeat(12);

/** esbuild options of the server bundle; `buildId` null in development (the watcher feeds it). */
function serverOptions({ root, out, mode, buildId }) {
  const production = mode === 'production';
  return {
    absWorkingDir: root,
    entryPoints: { main: SERVER },
    outdir: join(withRoot(root, out), 'server'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: production ? SERVER_EXTERNALS : DEVELOPMENT_EXTERNALS,
    // Dead development branches are dropped; names stay readable in stack traces.
    minifySyntax: true,
    sourcemap: 'linked', // for reading a logged stack; never served (outside /assets)
    sourcesContent: false, // file and line are enough for a stack trace; smaller maps load faster
    jsx: 'automatic',
    define: {
      // React's production build is chosen at build time, not by the environment at run time.
      'process.env.NODE_ENV': JSON.stringify(mode),
      // The bundle refuses a client build other than the one it was built with (src/build/bundle.ts).
      'globalThis.EILAND_BUNDLE_MODE': JSON.stringify(mode),
      'globalThis.EILAND_BUNDLE_BUILD_ID': JSON.stringify(buildId),
    },
    // Bundled CommonJS packages call require(); ESM output has none of its own.
    banner: { js: "import { createRequire as __eilandRequire } from 'node:module'; const require = __eilandRequire(import.meta.url);" },
    logLevel: 'silent',
  };
}

/** Bundles the server in memory, the client build id still a placeholder. */
function bundleServer({ root, out, mode }) {
  return esbuild.build({ ...serverOptions({ root, out, mode, buildId: BUILD_ID_PLACEHOLDER }), write: false });
}

/** Writes a bundle from {@link bundleServer} with the client build id filled in. */
async function writeServer(result, buildId) {
  if (buildId.length !== BUILD_ID_PLACEHOLDER.length) throw new RangeError(`A build id has ${BUILD_ID_PLACEHOLDER.length} characters, got "${buildId}"`);
  await mkdir(dirname(result.outputFiles[0].path), { recursive: true });
  await Promise.all(result.outputFiles.map((f) => writeFile(f.path, f.path.endsWith('.js') ? f.text.replace(BUILD_ID_PLACEHOLDER, buildId) : f.contents)));
  return result.outputFiles.find((f) => f.path.endsWith('.js')).path;
}

/**
 * Bundles the server (`src/main.ts`) for Node into `<out>/server/main.js` (+ `.map`).
 * @param {object} options
 * @param {string} [options.root] project root
 * @param {string} [options.out] build folder (default `dist`)
 * @param {'production'|'development'} [options.mode]
 * @param {string} options.buildId the client build the bundle serves (checked at its start)
 * @returns {Promise<{ file: string, ms: number }>}
 * @throws Error with esbuild's `errors` when a source does not compile
 */
export async function buildServer({ root = ROOT, out = 'dist', mode = 'production', buildId }) {
  const started = performance.now();
  const file = await writeServer(await bundleServer({ root, out, mode }), buildId);
  return { file, ms: Math.round(performance.now() - started) };
}

/**
 * The whole build (`npm run build`): client and server at once, then the client build id
 * stamped into the server bundle.
 * @param {object} [options] those of {@link buildClient}
 * @returns {Promise<{ manifest: object, files: string[], server: string, ms: number }>}
 * @throws Error with esbuild's `errors` when a source does not compile
 */
export async function build({ root = ROOT, out = 'dist', islandDirs = ['islands'], mode = 'production' } = {}) {
  const started = performance.now();
  const [client, server] = await Promise.all([buildClient({ root, out, islandDirs, mode }), bundleServer({ root, out, mode })]);
  const file = await writeServer(server, client.manifest.buildId);
  return { ...client, server: file, ms: Math.round(performance.now() - started) };
}

/**
 * esbuild's errors as the text it prints (file, line, column, the source line).
 * @param {unknown} error a rejected build or a result's `errors`
 * @param {boolean} [color] terminal colours
 * @returns {Promise<string>}
 */
export async function formatBuildErrors(error, color = false) {
  const errors = Array.isArray(error) ? error : (error?.errors ?? []);
  if (errors.length === 0) return String(error?.message ?? error);
  return (await esbuild.formatMessages(errors, { kind: 'error', color })).join('').trimEnd();
}

/** The folders development watches, relative to the root. */
const WATCHED = ['src', 'views', 'islands', IMAGES_DIR];
/** Changes closer together than this are one batch (an editor's save can be several writes). */
const SETTLE_MS = 25;

/** The sources a build read, as absolute paths, from its metafile (packages left out). */
function inputsOf(root, metafile) {
  return Object.keys(metafile.inputs)
    .filter((file) => !file.includes('node_modules'))
    .map((file) => resolve(root, file));
}

/** esbuild's result as a development event: `{ ok: true }` or the formatted errors. */
async function outcome(run) {
  try {
    return { ok: true, result: await run() };
  } catch (error) {
    return { ok: false, message: await formatBuildErrors(error), colored: await formatBuildErrors(error, true) };
  }
}

/**
 * Development: builds client and server, then rebuilds what a change touches (file-system
 * events on `src/`, `views/`, `islands/`, `images/`; esbuild's incremental rebuilds). Unminified, with
 * source maps; no .br/.gz twins. A failed build writes nothing, so the last good one stays.
 * @param {object} options
 * @param {string} [options.root] project root
 * @param {string} options.out build folder (e.g. `.eiland/dev`), emptied first
 * @param {(event: { client: BuildEvent } | { server: BuildEvent }) => void} options.onBuild after
 *   each build ends (the first ones, then those a batch of changes touches; the server's first):
 *   `{ ok: true }`
 *   (client: with the `manifest`, already written) or `{ ok: false, message, colored }`
 *   (esbuild's errors as printed, without and with colours)
 * @returns {Promise<{ dispose(): Promise<void> }>}
 */
export async function watch({ root = ROOT, out, onBuild }) {
  const outAbs = withRoot(root, out);
  await rm(outAbs, { recursive: true, force: true });
  await mkdir(join(outAbs, 'assets'), { recursive: true });
  const server = await esbuild.context({ ...serverOptions({ root, out: outAbs, mode: 'development', buildId: null }), metafile: true });
  let client; // recreated when an island is added or removed (the entry points change)
  const inputs = { client: new Set(), server: new Set(), rules: new Set() };
  const failing = { client: false, server: false }; // a failed build is tried again on any change

  const clientContexts = async () => {
    const derived = await deriveRules(root);
    inputs.rules = new Set(derived.inputs);
    const { islands, options } = await clientBuilds({ root, out: outAbs, islandDirs: ['islands'], production: false, rules: derived.rules });
    return { islands, contexts: await Promise.all(options.map((o) => esbuild.context(o))) };
  };
  let images; // the last image build: done again only when a file under images/ changed
  const buildClientOnce = async () => {
    const [built, ...results] = await Promise.all([images ?? buildImages({ root, outAbs }), ...client.contexts.map((c) => c.rebuild())]);
    images = built;
    const metafiles = results.map((r) => r.metafile);
    // routes.json is read by the manifest, not by esbuild: a change to it rewrites the manifest.
    inputs.client = new Set([...metafiles.flatMap((m) => inputsOf(root, m)), join(root, ROUTES), ...images.inputs]);
    return (await writeManifest({ root, out: outAbs, islands: client.islands, metafiles, images: images.images, production: false })).manifest;
  };
  const buildServerOnce = async () => {
    const result = await server.rebuild();
    inputs.server = new Set(inputsOf(root, result.metafile));
  };

  /** Runs the builds a batch of changed files touches, and reports them together. */
  const runBuilds = async ({ clientToo, serverToo, newContexts }) => {
    // The server first, with every core: a restart is what an open page waits for; the client
    // build then runs while the page waits to reconnect. Each is reported as soon as it ends.
    if (serverToo) {
      const event = await outcome(buildServerOnce);
      failing.server = !event.ok;
      onBuild({ server: event.ok ? { ok: true } : event });
    }
    if (clientToo) {
      const event = await outcome(async () => {
        if (newContexts || !client) {
          const old = client;
          client = undefined;
          await Promise.all(old?.contexts.map((c) => c.dispose()) ?? []);
          client = await clientContexts();
        }
        return buildClientOnce();
      });
      failing.client = !event.ok;
      onBuild({ client: event.ok ? { ok: true, manifest: event.result } : event });
    }
  };

  let queue = runBuilds({ clientToo: true, serverToo: true, newContexts: true });
  let changed = new Set();
  let timer;
  const flush = () => {
    const files = [...changed];
    changed = new Set();
    if (files.some((f) => f.startsWith(join(root, IMAGES_DIR) + sep))) images = undefined;
    const touches = (set) => files.some((f) => set.has(f));
    // A new island, or a change to the rule list embedded in the island: new client contexts.
    const newContexts =
      files.some((f) => dirname(f) === join(root, 'islands') && extname(f) === '.tsx' && !inputs.client.has(f)) || touches(inputs.rules);
    // A file no build has read yet (a new module being wired in) is tried by both.
    const unknown = files.some((f) => !inputs.client.has(f) && !inputs.server.has(f) && /\.(tsx?|css|json|svg)$/.test(f));
    const batch = {
      clientToo: failing.client || newContexts || unknown || touches(inputs.client),
      serverToo: failing.server || unknown || touches(inputs.server),
      newContexts,
    };
    if (batch.clientToo || batch.serverToo) queue = queue.then(() => runBuilds(batch));
  };
  const watchers = WATCHED.map((dir) =>
    fsWatch(join(root, dir), { recursive: true }, (_type, name) => {
      if (!name) return;
      changed.add(join(root, dir, name));
      clearTimeout(timer);
      timer = setTimeout(flush, SETTLE_MS);
    }),
  );
  await queue;
  return {
    async dispose() {
      clearTimeout(timer);
      watchers.forEach((w) => w.close());
      await queue.catch(() => {});
      await Promise.all([server, ...(client?.contexts ?? [])].map((c) => c.dispose()));
    },
  };
}

// The command line.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values: args } = parseArgs({ options: { islands: { type: 'string', multiple: true }, out: { type: 'string' }, client: { type: 'boolean' } } });
  const mode = process.env.NODE_ENV === 'development' ? 'development' : 'production';
  const options = { out: args.out ?? 'dist', islandDirs: ['islands', ...(args.islands ?? [])], mode };
  try {
    const result = await (args.client ? buildClient(options) : build(options));
    const server = result.server ? ` and ${relative(ROOT, result.server)}` : '';
    console.log(`build ${result.manifest.buildId} (${mode}): ${result.files.length} client files${server} in ${result.ms} ms`);
  } catch (error) {
    console.error(await formatBuildErrors(error, process.stderr.isTTY));
    process.exit(1);
  }
}

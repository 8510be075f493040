// Development builds (docs/development.md §1): client and server built once, then rebuilt as
// the files each one read change (esbuild's incremental contexts), each result reported. Files
// are watched with chokidar: Node 20's recursive fs.watch loses a file once an editor's atomic
// save (or git) has replaced it, and every later edit of that file went unseen.
/** @import { BuildContext, BuildOptions, Metafile } from 'esbuild' */
/** @import { BuildManifest } from '../protocol/manifest.js' */
import { mkdir, rm } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { dirname, extname, join, sep } from 'node:path';
import { watch as watchFiles } from 'chokidar';
import * as esbuild from 'esbuild';
import { clientBuilds } from './client.mjs';
import { formatBuildErrors } from './errors.mjs';
import { inputsOf } from './files.mjs';
import { buildImages } from './images.mjs';
import { writeManifest } from './manifest.mjs';
import { ROOT, SOURCES, withRoot } from './paths.mjs';
import { deriveRules } from './rules.mjs';
import { serverOptions } from './server.mjs';

/** The folders development watches, relative to the root. */
const WATCHED = ['src', 'protocol', 'views', 'islands', SOURCES.images];
/** Changes closer together than this are one batch (an editor's save can be several writes). */
const SETTLE_MS = 25;

/**
 * What one build ended in: good (a client build with its manifest, already written; a server
 * build with the packages its bundle loads from node_modules at start), or failed with esbuild's
 * errors as printed, without and with colours.
 * @typedef {{ ok: true, manifest?: BuildManifest, packages?: string[] } | { ok: false, message: string, colored: string }} BuildOutcome
 */

/**
 * A build's result as a development outcome (never a rejection).
 * @param {() => Promise<{ manifest?: BuildManifest, packages?: string[] }>} run
 * @returns {Promise<BuildOutcome>}
 */
async function outcome(run) {
  try {
    return { ok: true, ...(await run()) };
  } catch (error) {
    return { ok: false, message: await formatBuildErrors(error), colored: await formatBuildErrors(error, true) };
  }
}

/**
 * The packages a server bundle loads from node_modules as it starts (static imports and
 * require calls; not what it imports on demand, such as sharp), without Node's own modules.
 * @param {Metafile} metafile
 * @returns {string[]}
 */
function startupPackages(metafile) {
  const imports = Object.values(metafile.outputs).flatMap((output) => output.imports);
  return [...new Set(imports.filter((i) => i.external && i.kind !== 'dynamic-import' && !isBuiltin(i.path)).map((i) => i.path))];
}

/**
 * Development: builds client and server, then rebuilds what a change touches (file-system
 * events on `src/`, `protocol/`, `views/`, `islands/`, `images/`). Unminified, with source maps;
 * no .br/.gz twins. A failed build writes nothing, so the last good one stays.
 * @param {object} options
 * @param {string} [options.root] project root
 * @param {string} options.out build folder (e.g. `.eiland/dev`), emptied first
 * @param {(batch: { server?: Promise<BuildOutcome>, client?: Promise<BuildOutcome> }) => Promise<void>} options.onBatch
 *   called as the builds of a batch begin (the first batch has both), with the outcome of each one
 *   that runs; the next batch waits until it resolves
 * @returns {Promise<{ dispose(): Promise<void> }>}
 */
export async function watch({ root = ROOT, out, onBatch }) {
  const outAbs = withRoot(root, out);
  await rm(outAbs, { recursive: true, force: true });
  await mkdir(join(outAbs, 'assets'), { recursive: true });
  const server = await esbuild.context({ ...serverOptions({ root, out: outAbs, mode: 'development', buildId: null }), metafile: true });
  /**
   * The client contexts, recreated when an island is added or removed (the entry points change),
   * with each one's last metafile: a batch rebuilds only the contexts that read a changed file.
   * @type {{ islands: Record<string, string>, contexts: BuildContext[], metafiles: Array<Metafile | undefined> } | undefined}
   */
  let client;
  /** @type {{ client: Set<string>, server: Set<string>, rules: Set<string> }} */
  const inputs = { client: new Set(), server: new Set(), rules: new Set() };
  const failing = { client: false, server: false }; // a failed build is tried again on any change

  const clientContexts = async () => {
    const derived = await deriveRules(root);
    inputs.rules = new Set(derived.inputs);
    const { islands, options, checked } = await clientBuilds({ root, out: outAbs, islandDirs: ['islands'], production: false, rules: Promise.resolve(derived) });
    await checked;
    return { islands, contexts: await Promise.all(options.map((/** @type {BuildOptions} */ o) => esbuild.context(o))), metafiles: options.map(() => undefined) };
  };
  /** @type {Awaited<ReturnType<typeof buildImages>> | undefined} the last image build: done again only when a file under images/ changed */
  let images;
  /**
   * Rebuilds the client contexts that read one of `files` (every context when `files` is
   * undefined, or one that has not built yet), then writes the manifest from all of them.
   * @param {string[] | undefined} files
   */
  const buildClientOnce = async (files) => {
    const current = client;
    if (!current) throw new Error('No client build contexts');
    const stale = (/** @type {number} */ i) => {
      const metafile = current.metafiles[i];
      return !files || !metafile || inputsOf(root, metafile).some((input) => files.includes(input));
    };
    const [built] = await Promise.all([
      images ?? buildImages({ root, outAbs }),
      ...current.contexts.map(async (context, i) => {
        if (stale(i)) current.metafiles[i] = /** @type {Metafile} */ ((await context.rebuild()).metafile);
      }),
    ]);
    images = built;
    const metafiles = current.metafiles.map((m) => /** @type {Metafile} */ (m));
    // routes.json is read by the manifest, not by esbuild: a change to it rewrites the manifest.
    inputs.client = new Set([...metafiles.flatMap((m) => inputsOf(root, m)), join(root, SOURCES.routes), ...images.inputs]);
    return (await writeManifest({ root, out: outAbs, islands: current.islands, metafiles, images: images.images, production: false })).manifest;
  };
  const buildServerOnce = async () => {
    const result = await server.rebuild();
    const metafile = /** @type {Metafile} */ (result.metafile);
    inputs.server = new Set(inputsOf(root, metafile));
    return { packages: startupPackages(metafile) };
  };

  /**
   * Runs the builds a batch of changed files touches, and reports them together.
   * @param {{ clientToo: boolean, serverToo: boolean, newContexts: boolean, files?: string[] }} batch
   *   `files`: what changed, when only the contexts that read them need a rebuild
   */
  const runBuilds = async ({ clientToo, serverToo, newContexts, files }) => {
    /** Notes whether a build failed (it is tried again on any change), and passes its outcome on. */
    const noted = (/** @type {'client' | 'server'} */ kind) => (/** @type {BuildOutcome} */ event) => {
      failing[kind] = !event.ok;
      return event;
    };
    // Both at once: an open page waits for the slower one (esbuild runs them in parallel).
    const serverOutcome = serverToo ? outcome(buildServerOnce).then(noted('server')) : undefined;
    const clientOutcome = clientToo
      ? outcome(async () => {
          if (newContexts || !client) {
            const old = client;
            client = undefined;
            await Promise.all(old?.contexts.map((c) => c.dispose()) ?? []);
            client = await clientContexts();
          }
          return { manifest: await buildClientOnce(files) };
        }).then(noted('client'))
      : undefined;
    await onBatch({ server: serverOutcome, client: clientOutcome });
    await Promise.all([serverOutcome, clientOutcome]);
  };

  let queue = runBuilds({ clientToo: true, serverToo: true, newContexts: true });
  /** @type {Set<string>} */
  let changed = new Set();
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const flush = () => {
    const files = [...changed];
    changed = new Set();
    if (files.some((f) => f.startsWith(join(root, SOURCES.images) + sep))) images = undefined;
    /** @param {Set<string>} set */
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
      // Images and routes.json are read outside esbuild: their change, like a failure, rebuilds all.
      files: failing.client || unknown || files.some((f) => !/\.(tsx?|css|svg)$/.test(f) || f.startsWith(join(root, SOURCES.images) + sep)) ? undefined : files,
    };
    if (batch.clientToo || batch.serverToo) queue = queue.then(() => runBuilds(batch));
  };
  const watcher = watchFiles(WATCHED.map((dir) => join(root, dir)), { ignoreInitial: true }).on('all', (_event, path) => {
    changed.add(path);
    clearTimeout(timer);
    timer = setTimeout(flush, SETTLE_MS);
  });
  // Ready once both the first builds and the watcher's scan are done: an edit right after is seen.
  await Promise.all([queue, new Promise((resolve) => watcher.once('ready', () => resolve(undefined)))]);
  return {
    async dispose() {
      clearTimeout(timer);
      await watcher.close();
      await queue.catch(() => {});
      await Promise.all([server, ...(client?.contexts ?? [])].map((c) => c.dispose()));
    },
  };
}

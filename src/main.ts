/**
 * The process entry (`npm start` runs its bundle, `npm run dev` its development bundle):
 * validates the configuration, starts the server, and shuts down gracefully on
 * SIGTERM/SIGINT with exit code 0.
 */
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { developmentAssets, type AssetsSource } from './build/assets-source.js';
import { BUNDLE } from './build/bundle.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { PROJECT_ROOT } from './project-root.js';
import { exitOnSignals, startServer } from './server.js';

/**
 * V8 lets the old generation grow to several times what survives a full collection before it
 * collects again: under load that is ~100 MB of garbage around a ~25 MB live heap. Growing by
 * half keeps the heap near what the server holds (product.md §13: peak RSS ≤ 150 MB; measured
 * 204 → 141 MB at 32 connections). Set before the server allocates.
 */
const HEAP_GROWING_PERCENT = 50;
setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);

/** Where `npm run dev` builds (scripts/dev.mjs writes the same folder). */
const DEV_BUILD_DIR = join(PROJECT_ROOT, '.eiland', 'dev');

/**
 * The client build to serve: production reads `dist/` once (the app's default); development
 * takes every rebuild the dev runner sends over IPC (product.md §11).
 */
function assetsFor(config: Config): AssetsSource | undefined {
  if (BUNDLE && (BUNDLE.mode === 'production') !== config.production) {
    const mode = config.production ? 'production' : 'development';
    throw new ConfigError([`NODE_ENV=${mode} does not match this ${BUNDLE.mode} bundle: run "npm start" for production, "npm run dev" for development`]);
  }
  if (config.production) return undefined;
  const assets = developmentAssets(DEV_BUILD_DIR);
  process.on('message', (message) => assets.feed.receive(message));
  // The dev runner answers with the newest build (or failure), which may be newer than the file.
  process.send?.({ type: 'ready' });
  return assets;
}

try {
  const config = loadConfig();
  const running = await startServer(config, { assets: assetsFor(config) });
  exitOnSignals(running);
  // Under the dev runner: when it goes, so does this server.
  process.once('disconnect', () => void running.shutdown('disconnect').then(() => process.exit(0)));
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `Eiland could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

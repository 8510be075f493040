/**
 * Where the renderer asks for the current client build, per request (product.md §5, §11).
 * In production the manifest is read once at start; in development the dev runner's
 * watcher feeds every rebuild (or failure) over IPC and the build changes in place.
 */
import { randomBytes } from 'node:crypto';
import { BUNDLE } from './bundle.js';
import { readManifest, type BuildManifest } from './manifest.js';

/** The current client build, asked for per request. */
export interface AssetsSource {
  /** The build folder: `manifest.json` and `assets/` (served as `/assets/`). */
  readonly dir: string;
  /** The manifest to render this request with. */
  current(): BuildManifest;
  /** Development only: the watcher's feed, announced on the reload channel. */
  readonly feed?: BuildFeed;
}

/**
 * Production: the manifest of `dir`, read once.
 * @param dir the build folder (e.g. `dist`)
 * @throws Error naming the command to run when the manifest is missing or invalid, or when it
 *   is not the build this server bundle was made with (a stale `dist/`)
 */
export function productionAssets(dir: string): AssetsSource {
  const manifest = readManifest(`${dir}/manifest.json`);
  if (BUNDLE?.buildId && BUNDLE.buildId !== manifest.buildId) {
    throw new Error(`${dir}/manifest.json is build ${manifest.buildId}, but this server was bundled with build ${BUNDLE.buildId}: run "npm run build"`);
  }
  return { dir, current: () => manifest };
}

/** What the dev runner sends the server after each client build. */
export type BuildMessage = { type: 'client-built'; manifest: BuildManifest } | { type: 'build-failed'; message: string };

/** What the reload channel announces. */
export type BuildEvent = { type: 'reload'; id: string } | { type: 'build-failed'; message: string };

/**
 * The development build as the watcher reports it. Its `id` names what an open page shows:
 * the client build and this server process, so that a rebuilt client or a restarted server
 * is a new id (product.md §11: a page whose id differs after reconnecting reloads).
 */
export class BuildFeed {
  /** The last build error the developer's build printed, until the next good build. */
  failure: string | undefined;
  readonly #process = randomBytes(4).toString('hex');
  readonly #listeners = new Set<(event: BuildEvent) => void>();

  constructor(public manifest: BuildManifest) {}

  /** The id of the build open pages should show. */
  get id(): string {
    return `${this.manifest.buildId}-${this.#process}`;
  }

  /**
   * Takes a message from the dev runner; anything else is ignored.
   * @param message a {@link BuildMessage}
   */
  receive(message: unknown): void {
    const m = message as Partial<BuildMessage> | null;
    if (m?.type === 'client-built' && m.manifest) {
      this.manifest = m.manifest;
      this.failure = undefined;
      this.#emit({ type: 'reload', id: this.id });
    } else if (m?.type === 'build-failed' && typeof m.message === 'string') {
      this.failure = m.message;
      this.#emit({ type: 'build-failed', message: m.message });
    }
  }

  /**
   * Calls `listener` on every rebuild and failure.
   * @returns a function that unsubscribes
   */
  subscribe(listener: (event: BuildEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(event: BuildEvent): void {
    for (const listener of this.#listeners) listener(event);
  }
}

/**
 * Development: starts from the manifest in `dir` (the watcher's first build); the dev runner
 * then feeds it through {@link BuildFeed.receive}.
 * @param dir the development build folder (e.g. `.eiland/dev`)
 * @throws Error when the first build's manifest is missing
 */
export function developmentAssets(dir: string): AssetsSource & { feed: BuildFeed } {
  const feed = new BuildFeed(readManifest(`${dir}/manifest.json`, 'npm run dev'));
  return { dir, feed, current: () => feed.manifest };
}

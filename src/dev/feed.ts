/**
 * The development build as the runner reports it (docs/development.md §1–§2): the current client
 * manifest, the last failure, and listeners (the reload channel's open streams).
 */
import { randomBytes } from 'node:crypto';
import type { BuildManifest } from '../../protocol/manifest.js';
import type { ReloadEvent } from '../../protocol/reload.js';
import type { AssetsSource } from '../assets/source.js';
import { readManifest } from '../assets/manifest.js';
import { isRunnerMessage } from './ipc.js';

/** What open pages are told after a change: a new id to show, or a failure. */
export type FeedEvent = Exclude<ReloadEvent, { type: 'hello' }>;

/**
 * The development build. Its `id` names what an open page shows: the client build and this
 * server process, so that a rebuilt client or a restarted server is a new id (docs/development.md
 * §3: a page whose id differs after reconnecting reloads).
 */
export class BuildFeed {
  /** The last build error the developer's build printed, until the next good build. */
  failure: string | undefined;
  readonly #process = randomBytes(4).toString('hex');
  readonly #listeners = new Set<(event: FeedEvent) => void>();

  constructor(public manifest: BuildManifest) {}

  /** The id of the build open pages should show. */
  get id(): string {
    return `${this.manifest.buildId}-${this.#process}`;
  }

  /**
   * Takes a message from the runner; anything that is not a {@link RunnerMessage} is ignored
   * (it arrives over IPC, untyped).
   */
  receive(message: unknown): void {
    if (!isRunnerMessage(message)) return;
    if (message.type === 'client-built') {
      this.manifest = message.manifest;
      this.failure = undefined;
      this.#emit({ type: 'reload', id: this.id });
    } else {
      this.failure = message.message;
      this.#emit({ type: 'build-failed', message: message.message });
    }
  }

  /**
   * Calls `listener` on every rebuild and failure.
   * @returns a function that unsubscribes
   */
  subscribe(listener: (event: FeedEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(event: FeedEvent): void {
    for (const listener of this.#listeners) listener(event);
  }
}

/**
 * The development client build: starts from the manifest in `dir` (the runner's first build);
 * the runner then feeds it through {@link BuildFeed.receive}.
 * @param dir the development build folder (e.g. `.eiland/dev`)
 * @throws Error when the first build's manifest is missing
 */
export function developmentAssets(dir: string): AssetsSource & { feed: BuildFeed } {
  const feed = new BuildFeed(readManifest(`${dir}/manifest.json`, 'npm run dev'));
  return { dir, feed, current: () => feed.manifest };
}

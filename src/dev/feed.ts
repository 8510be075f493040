/**
 * What open pages should show under `npm run dev` (docs/development.md §2–§3): the id of the
 * current build, or the last build failure, and the reload channel's open streams listening.
 * Kept by the development runner, which outlives every server it starts.
 */
import type { ReloadEvent } from '../../protocol/reload.js';

/** What open pages are told after a change: a new id to show, or a failure. */
type FeedEvent = Exclude<ReloadEvent, { type: 'hello' }>;

/** The development build as open pages follow it. */
export class BuildFeed {
  /** The id of the build pages should show (`<client build id>-<server process>`). */
  id: string;
  /** What the developer's build printed, until the next good build. */
  failure: string | undefined;
  readonly #listeners = new Set<(event: FeedEvent) => void>();

  /** @param id the first build's id */
  constructor(id: string) {
    this.id = id;
  }

  /** A good build is running under `id`: the failure ends, open pages reload. */
  show(id: string): void {
    this.id = id;
    this.failure = undefined;
    this.#emit({ type: 'reload', id });
  }

  /** A build failed: open pages show `message` and keep what they show. */
  fail(message: string): void {
    this.failure = message;
    this.#emit({ type: 'build-failed', message });
  }

  /**
   * Calls `listener` on every good build and every failure.
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

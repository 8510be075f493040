/**
 * The instance's lifecycle, read by `/readyz` (docs/pages.md §1, docs/operations.md §4–§5):
 * `starting` → `ready` → `stopping`.
 */
import { EventEmitter } from 'node:events';

type LifecycleState = 'starting' | 'ready' | 'stopping';

/**
 * A mutable holder of the lifecycle state, shared by the server and the app. It emits
 * `stopping` once shutdown begins, so long-lived responses (the reload channel) can end.
 */
export class Lifecycle extends EventEmitter<{ stopping: [] }> {
  #state: LifecycleState;

  constructor(state: LifecycleState = 'starting') {
    super();
    this.#state = state;
  }

  get state(): LifecycleState {
    return this.#state;
  }

  set state(next: LifecycleState) {
    const changed = next !== this.#state;
    this.#state = next;
    if (changed && next === 'stopping') this.emit('stopping');
  }

  /** True only while the instance should receive traffic. */
  get ready(): boolean {
    return this.#state === 'ready';
  }
}

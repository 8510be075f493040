/**
 * The instance's lifecycle, read by `/readyz` (product.md §1, §12):
 * `starting` → `ready` → `stopping`.
 */
export type LifecycleState = 'starting' | 'ready' | 'stopping';

/** A mutable holder of the lifecycle state, shared by the server and the app. */
export class Lifecycle {
  constructor(public state: LifecycleState = 'starting') {}

  /** True only while the instance should receive traffic. */
  get ready(): boolean {
    return this.state === 'ready';
  }
}

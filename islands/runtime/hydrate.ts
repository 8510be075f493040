/**
 * The React side of the island runtime (docs/islands.md §2): hydrates one island's server HTML
 * as its own React root. The runtime (islands.ts), which holds no React, imports this module
 * with React when the first island's trigger fires. Browser code only.
 */
import { useEffect, type ComponentType, type ReactNode } from 'react';
import { jsx } from 'react/jsx-runtime';
import { hydrateRoot } from 'react-dom/client';

/** What {@link hydrate} reports to the runtime. */
interface HydrateOptions {
  /** The island's `identifierPrefix`, the same as the server's. */
  identifierPrefix: string;
  /** Called once React has committed the hydrated tree. */
  onCommitted(): void;
  /** Called with an error React did not recover from (render, hydration or an effect). */
  onError(error: unknown): void;
}

/** Runs `onCommitted` once React has committed the tree inside it. */
function Committed({ onCommitted, children }: { onCommitted(): void; children?: ReactNode }) {
  useEffect(() => onCommitted(), [onCommitted]);
  return children;
}

/**
 * Hydrates an island root.
 * @param container the island's `data-island-root` element
 * @param component the island's component (its chunk's default export)
 * @param props its props, parsed from the page
 * @param options its prefix, and what to call once committed or on an error
 * @returns the root, to unmount when the island fails
 */
export function hydrate(container: HTMLElement, component: ComponentType<Record<string, unknown>>, props: Record<string, unknown>, options: HydrateOptions): { unmount(): void } {
  return hydrateRoot(container, jsx(Committed, { onCommitted: options.onCommitted, children: jsx(component, props) }), {
    identifierPrefix: options.identifierPrefix,
    onUncaughtError: (error) => options.onError(error),
    onRecoverableError: (error) => console.error(error),
  });
}

/**
 * The island runtime (docs/islands.md §2, docs/errors.md §5): finds island markers, loads each
 * island's chunk when its trigger fires, hydrates it as its own root with its
 * own `identifierPrefix`, marks it hydrated, and isolates failures: a failing
 * island shows the Application error text and the others go on.
 * Loaded only on pages that render islands. Browser code only.
 */
import { createElement, useEffect, type ComponentType, type ReactNode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { ISLAND_ATTRIBUTES as A, islandPrefix, type HydrationTrigger } from '../../protocol/islands.js';
import { reportClientError, showApplicationError } from './client-errors.js';

/** The island whose event handler is running, to attribute handler errors. */
let active: HTMLElement | null = null;
const roots = new WeakMap<HTMLElement, Root>();
const EVENTS = ['click', 'input', 'change', 'submit', 'keydown', 'keyup', 'focusin', 'focusout', 'pointerdown', 'pointerup'];

function fail(marker: HTMLElement, error: unknown): void {
  if (marker.getAttribute(A.hydrated) === 'failed') return;
  marker.setAttribute(A.hydrated, 'failed');
  reportClientError(error, marker.getAttribute(A.name) ?? undefined);
  // Unmount after React has finished with the root, then show the alert.
  setTimeout(() => {
    roots.get(marker)?.unmount();
    showApplicationError(marker);
  });
}

/** Marks the marker hydrated once React has committed the hydrated tree. */
function Hydrated({ marker, children }: { marker: HTMLElement; children?: ReactNode }) {
  useEffect(() => {
    if (marker.getAttribute(A.hydrated) === 'pending') marker.setAttribute(A.hydrated, 'true');
  }, [marker]);
  return children;
}

async function hydrate(marker: HTMLElement): Promise<void> {
  try {
    const container = marker.querySelector<HTMLElement>(`:scope > [${A.root}]`);
    const json = marker.querySelector(`:scope > script[${A.props}]`)?.textContent;
    const src = marker.getAttribute(A.src);
    if (!container || json == null || !src) throw new Error(`Island "${marker.getAttribute(A.name)}" marker is incomplete`);
    const props = JSON.parse(json) as Record<string, unknown>;
    const module = (await import(src)) as { default: ComponentType<Record<string, unknown>> };
    for (const type of EVENTS) {
      marker.addEventListener(type, () => (active = marker), { capture: true });
      marker.addEventListener(type, () => (active = null));
    }
    const root = hydrateRoot(container, createElement(Hydrated, { marker }, createElement(module.default, props)), {
      identifierPrefix: islandPrefix(marker.getAttribute(A.id) ?? ''),
      onUncaughtError: (error) => fail(marker, error),
      onRecoverableError: (error) => console.error(error),
    });
    roots.set(marker, root);
  } catch (error) {
    fail(marker, error);
  }
}

function schedule(marker: HTMLElement): void {
  marker.setAttribute(A.hydrated, 'pending');
  const start = () => void hydrate(marker);
  switch (marker.getAttribute(A.trigger) as HydrationTrigger | null) {
    case 'idle':
      if ('requestIdleCallback' in window) requestIdleCallback(start);
      else setTimeout(start, 200);
      break;
    case 'visible': {
      const observer = new IntersectionObserver((entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          observer.disconnect();
          start();
        }
      });
      observer.observe(marker);
      break;
    }
    default:
      start();
  }
}

/** Schedules every island not yet seen (islands may stream in after this script ran). */
export function scanIslands(): void {
  for (const marker of document.querySelectorAll<HTMLElement>(`[${A.name}]:not([${A.hydrated}])`)) schedule(marker);
}

// An error thrown in an island's event handler reaches window; attribute it.
window.addEventListener('error', (event) => {
  if (active) fail(active, event.error ?? new Error(event.message));
});

scanIslands();
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', scanIslands);

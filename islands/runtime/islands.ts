/**
 * The island runtime (docs/islands.md §2, docs/errors.md §5): finds island markers, and when an
 * island's trigger fires loads its chunk and hydrates it as its own root with its own
 * `identifierPrefix`, marks it hydrated, and isolates failures: a failing island shows the
 * Application error text and the others go on. It holds no React: an island's module brings React
 * and exports the hydration function of `./hydrate.js` (build/form-islands.mjs), imported when
 * its trigger fires, so a page whose islands wait for an interaction
 * evaluates no React until someone interacts. Until such an island has hydrated, a submit of its
 * form is held, then replayed (event replay).
 * Loaded only on pages that render islands, by the router, which starts it with its own client
 * errors (one copy of that code per page). Browser code only.
 */
import type { ComponentType } from 'react';
import type { hydrate as hydrateIsland } from './hydrate.js';
import { ISLAND_ATTRIBUTES as A, INTERACTION_EVENTS, islandPrefix, type HydrationTrigger } from '../../protocol/islands.js';
import type { reportClientError, showApplicationError } from './client-errors.js';

/** How the runtime reports a failing island (docs/errors.md §5): the router's client errors. */
interface ClientErrors {
  report: typeof reportClientError;
  show: typeof showApplicationError;
}

let errors: ClientErrors | undefined;

/** The island whose event handler is running, to attribute handler errors. */
let active: HTMLElement | null = null;
const roots = new WeakMap<HTMLElement, { unmount(): void }>();
/** Each pending island's way to tell its scheduler whether it hydrated. */
const settled = new WeakMap<HTMLElement, (hydrated: boolean) => void>();
const EVENTS = ['click', 'input', 'change', 'submit', 'keydown', 'keyup', 'focusin', 'focusout', 'pointerdown', 'pointerup'];

function fail(marker: HTMLElement, error: unknown): void {
  if (marker.getAttribute(A.hydrated) === 'failed') return;
  marker.setAttribute(A.hydrated, 'failed');
  settled.get(marker)?.(false);
  errors?.report(error, marker.getAttribute(A.name) ?? undefined);
  // Unmount after React has finished with the root, then show the alert.
  setTimeout(() => {
    roots.get(marker)?.unmount();
    errors?.show(marker);
  });
}

/**
 * Hydrates a marker: its chunk and the React side, both preloaded, then `hydrateRoot`.
 * @returns whether it hydrated (false: it failed and shows the Application error); never rejects
 */
function hydrate(marker: HTMLElement): Promise<boolean> {
  const done = new Promise<boolean>((resolve) => settled.set(marker, resolve));
  void (async () => {
    try {
      const container = marker.querySelector<HTMLElement>(`:scope > [${A.root}]`);
      const json = marker.querySelector(`:scope > script[${A.props}]`)?.textContent;
      const src = marker.getAttribute(A.src);
      if (!container || !src) throw new Error(`Island "${marker.getAttribute(A.name)}" marker is incomplete`);
      // A marker without a props script: the island's props are none (docs/islands.md §1).
      const props = JSON.parse(json ?? '{}') as Record<string, unknown>;
      const module = (await import(src)) as { default: ComponentType<Record<string, unknown>>; hydrate: typeof hydrateIsland };
      for (const type of EVENTS) {
        marker.addEventListener(type, () => (active = marker), { capture: true });
        marker.addEventListener(type, () => (active = null));
      }
      const root = module.hydrate(container, module.default, props, {
        identifierPrefix: islandPrefix(marker.getAttribute(A.id) ?? ''),
        onCommitted: () => {
          if (marker.getAttribute(A.hydrated) !== 'pending') return;
          marker.setAttribute(A.hydrated, 'true');
          settled.get(marker)?.(true);
        },
        onError: (error) => fail(marker, error),
      });
      roots.set(marker, root);
    } catch (error) {
      fail(marker, error);
    }
  })();
  return done;
}

/** What a person focuses to act on; the router's focus on a page's heading is not an interaction. */
const CONTROLS = 'input, select, textarea, button, a[href], [contenteditable]';

/**
 * Waits for the first interaction with an island (docs/islands.md §2) and holds a submit of
 * its form until it has hydrated: then the submit is replayed, through the island's handler if
 * it hydrated, natively if it failed. Focus on a control inside the island counts, also when it
 * is there already.
 */
function onInteraction(marker: HTMLElement, start: () => Promise<boolean>): void {
  let started = false;
  let held: { form: HTMLFormElement; submitter: HTMLElement | null } | undefined;
  const begin = (event?: Event) => {
    if (event?.type === 'focusin' && !(event.target as Element).matches(CONTROLS)) return;
    for (const type of INTERACTION_EVENTS) marker.removeEventListener(type, begin, true);
    if (started) return;
    started = true;
    void start().then(() => {
      marker.removeEventListener('submit', hold, true);
      if (held) held.form.requestSubmit(held.submitter);
    });
  };
  const hold = (event: Event) => {
    event.preventDefault();
    event.stopPropagation();
    held ??= { form: event.target as HTMLFormElement, submitter: (event as SubmitEvent).submitter };
    begin();
  };
  marker.addEventListener('submit', hold, true);
  for (const type of INTERACTION_EVENTS) marker.addEventListener(type, begin, { capture: true, passive: true });
  if (document.activeElement?.matches(CONTROLS) && marker.contains(document.activeElement)) begin();
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
    case 'interaction':
      onInteraction(marker, () => hydrate(marker));
      break;
    default:
      start();
  }
}

/**
 * Schedules every island of the page not yet seen: the router calls it once the page has loaded
 * and after each navigation that shows islands (docs/islands.md §2–§3).
 * @param clientErrors how a failing island is reported and shown
 */
export function scanIslands(clientErrors: ClientErrors): void {
  errors = clientErrors;
  for (const marker of document.querySelectorAll<HTMLElement>(`[${A.name}]:not([${A.hydrated}])`)) schedule(marker);
}

// An error thrown in an island's event handler reaches window; attribute it.
window.addEventListener('error', (event) => {
  if (active) fail(active, event.error ?? new Error(event.message));
});

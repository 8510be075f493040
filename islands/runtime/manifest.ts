/**
 * The build manifest as the router reads it (docs/navigation.md §3): loaded once per page life
 * from the URL in `<meta name="eiland-manifest">`, and the route a path belongs to.
 * Browser code only.
 */
import type { ClientManifest } from '../../protocol/manifest.js';
import { META } from '../../protocol/meta.js';
import { RouteFailure, timed } from './failure.js';

/** The one load of the page's life; a failed load is forgotten so the next navigation tries again. */
let manifest: Promise<ClientManifest> | undefined;

/**
 * Loads the build manifest named by `<meta name="eiland-manifest">`, within 3800 ms and once per
 * page life (docs/navigation.md §3).
 * @returns the manifest, the same promise for every caller while the load stands
 * @throws RouteFailure (rejects) on a non-2xx answer, a network error, bad JSON or a time-out;
 *   a time-out also writes `Route did not complete loading` to `console.error`
 */
export function loadManifest(): Promise<ClientManifest> {
  const url = document.querySelector(`meta[name="${META.manifest}"]`)?.getAttribute('content') ?? '';
  manifest ??= timed(async (signal) => {
    const res = await fetch(url, { signal });
    if (!res.ok) throw new RouteFailure();
    return (await res.json()) as ClientManifest;
  }, true).catch((error: unknown) => {
    manifest = undefined;
    throw error;
  });
  return manifest;
}

/**
 * The manifest's entry for a path (docs/navigation.md §3, §6): patterns like
 * `/aanmeldingen/:id` match one non-empty segment per parameter.
 * @param m the build manifest
 * @param path a URL's path, without query or hash, e.g. `/aanmeldingen/42`
 * @returns the route's kind and assets, or undefined for a path no route declares
 */
export function routeOf(m: ClientManifest, path: string): ClientManifest['routes'][string] | undefined {
  const parts = path.split('/');
  const match = Object.keys(m.routes).find((pattern) => {
    const want = pattern.split('/');
    return want.length === parts.length && want.every((p, i) => (p.startsWith(':') ? parts[i] !== '' : p === parts[i]));
  });
  return match === undefined ? undefined : m.routes[match];
}

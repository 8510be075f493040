/**
 * Page data as the router fetches it (docs/navigation.md §1, §3–§4): asked for with the marker
 * header, and taken only with the marker and the page's own build id.
 * Browser code only.
 */
import type { ClientManifest } from '../../protocol/manifest.js';
import { DATA_HEADER, DATA_MARKER, type PageData } from '../../protocol/page-data.js';
import { RouteFailure, timed } from './failure.js';
import { routeOf } from './manifest.js';

/** Page data and the URL that answered it (after redirects: what the history shows). */
export type Loaded = { data: PageData; url: string };

/**
 * Reads a response as page data (docs/navigation.md §1, §4).
 * @param res an answer to a request sent with `X-Eiland-Data: 1`
 * @param buildId the id of the build this page runs
 * @returns the page data and the response's final URL
 * @throws RouteFailure (rejects) without the marker header, on bad JSON or another build id
 */
export async function readPageData(res: Response, buildId: string): Promise<Loaded> {
  if (res.headers.get(DATA_HEADER) !== DATA_MARKER) throw new RouteFailure();
  const data = (await res.json().catch(() => null)) as PageData | null;
  if (data?.buildId !== buildId || typeof data.html !== 'string') throw new RouteFailure();
  return { data, url: res.url };
}

/**
 * Fetches a page's data (docs/navigation.md §3): each attempt within 3800 ms; an `ssr` route gets
 * 3 attempts in total while the answer is a 5xx, any other route 1.
 * @param url the page's URL (its hash is not sent)
 * @param m the build manifest, for the route's kind and the build id
 * @returns the page data of an answer below 500 (a 4xx error page included)
 * @throws RouteFailure (rejects) on a network error, a time-out, a 5xx after the last attempt, or
 *   an answer {@link readPageData} refuses
 */
export async function fetchPageData(url: URL, m: ClientManifest): Promise<Loaded> {
  const attempts = routeOf(m, url.pathname)?.kind === 'ssr' ? 3 : 1;
  for (let attempt = 1; ; attempt++) {
    const res = await timed((signal) => fetch(url.pathname + url.search, { headers: { [DATA_HEADER]: DATA_MARKER }, signal, credentials: 'same-origin' }));
    if (res.status < 500) return readPageData(res, m.buildId);
    if (attempt >= attempts) throw new RouteFailure();
  }
}

/**
 * The page-data answer (docs/navigation.md §1): the complete `<main>` of a page as JSON, with
 * the same status as the HTML, the marker header, and what the router needs to show it.
 */
import type { Response } from 'express';
import type { BuildManifest } from '../../protocol/manifest.js';
import { DATA_HEADER, DATA_MARKER, type PageData } from '../../protocol/page-data.js';
import type { RouteKind } from '../../protocol/routes.js';
import type { AssetPlan } from './asset-plan.js';

/** What a page-data answer is made of besides the rendered HTML. */
export interface PageDataParts {
  manifest: BuildManifest;
  /** The route pattern, or undefined (an unknown path's error page). */
  route: string | undefined;
  /** The route's kind; from the manifest when absent. */
  kind: RouteKind | undefined;
  status: number;
  title: string;
  /** The page's description, or null (error pages). */
  description: string | null;
  /** The view's props; promise values (deferred loader data) are awaited. */
  props: object;
  cacheControl: string;
  plan: AssetPlan;
}

/** Awaits promise-valued props (deferred loader data). */
async function settledProps(props: object): Promise<Record<string, unknown>> {
  const entries = await Promise.all(Object.entries(props).map(async ([k, v]) => [k, v instanceof Promise ? await v : v] as const));
  return Object.fromEntries(entries);
}

/** A page-data answer's body, and where in it the rendered HTML stands (the render cache's holes differ there). */
interface PageDataBody {
  json: string;
  /** The range of `json` that holds the `html` string's content. */
  htmlRange: [number, number];
}

/**
 * Makes the page-data body once the props have settled.
 * @param html the rendered `<main>` content
 */
export async function pageDataBody(html: string, parts: PageDataParts): Promise<PageDataBody> {
  const props = await settledProps(parts.props);
  const { manifest, route } = parts;
  const body: PageData = {
    buildId: manifest.buildId,
    route: route ?? null,
    kind: parts.kind ?? (route === undefined ? undefined : manifest.routes[route]?.kind) ?? 'static',
    status: parts.status,
    title: parts.title,
    description: parts.description,
    props,
    html: '',
    islands: parts.plan.islands,
    assets: parts.plan.assets,
  };
  // The HTML goes where the empty string stands: the last `"html":""` is the field's, since only
  // the lists of islands and assets, which have no keys, follow it.
  const [before, after] = splitOnce(JSON.stringify(body), `"html":""`);
  const escaped = JSON.stringify(html).slice(1, -1);
  const start = before.length + '"html":"'.length;
  return { json: `${before}"html":"${escaped}"${after}`, htmlRange: [start, start + escaped.length] };
}

/** Splits at the last occurrence of a separator. */
function splitOnce(text: string, separator: string): [string, string] {
  const at = text.lastIndexOf(separator);
  return [text.slice(0, at), text.slice(at + separator.length)];
}

/**
 * Sends a page-data body: the status, the marker header and `Cache-Control` of the page.
 * @returns false when the client has gone meanwhile (nothing is sent)
 */
export function sendPageData(res: Response, json: string, { status, cacheControl }: { status: number; cacheControl: string }): boolean {
  if (res.headersSent || res.destroyed) return false;
  res.status(status).set(DATA_HEADER, DATA_MARKER).set('Cache-Control', cacheControl).set('Content-Type', 'application/json; charset=utf-8').send(json);
  return true;
}

/**
 * The page-data answer (docs/navigation.md §1): the complete `<main>` of a page as JSON, with
 * the same status as the HTML, the marker header, and what the router needs to show it.
 */
import { createHash } from 'node:crypto';
import type { Response } from 'express';
import type { BuildManifest } from '../../protocol/manifest.js';
import { DATA_HEADER, DATA_MARKER, type PageData } from '../../protocol/page-data.js';
import type { RouteKind } from '../../protocol/routes.js';
import { notModified } from '../not-modified.js';
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

/** A page-data answer as it goes out: its status, its header lines (after the filter's), its body. */
export interface PageDataAnswer {
  status: number;
  /** Name, value, …, as `writeHead` takes them. */
  lines: string[];
  body: string;
}

/**
 * A page-data answer (docs/navigation.md §1): the marker header, the page's `Cache-Control`, and
 * an ETag of the body, so a static page's data is revalidated with a 304; the same on both paths
 * (the fast path, src/fast-path.ts, and Express's, {@link sendPageData}).
 * @param json the page-data body
 * @param page its status and `Cache-Control`
 * @param request the request's `If-None-Match` and whether it is a HEAD
 */
export function pageDataAnswer(json: string, { status, cacheControl }: { status: number; cacheControl: string }, request: { ifNoneMatch: string | undefined; head: boolean }): PageDataAnswer {
  const etag = `"${createHash('sha1').update(json).digest('base64url')}"`;
  const lines = [DATA_HEADER, DATA_MARKER, 'Cache-Control', cacheControl];
  if (status === 200 && notModified(request.ifNoneMatch, etag)) return { status: 304, lines: [...lines, 'ETag', etag], body: '' };
  return { status, lines: [...lines, 'Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(Buffer.byteLength(json)), 'ETag', etag], body: request.head ? '' : json };
}

/**
 * Sends a page-data body on the Express path (see {@link pageDataAnswer}).
 * @returns false when the client has gone meanwhile (nothing is sent)
 */
export function sendPageData(res: Response, json: string, page: { status: number; cacheControl: string }): boolean {
  if (res.headersSent || res.destroyed) return false;
  const answer = pageDataAnswer(json, page, { ifNoneMatch: res.req.get('if-none-match'), head: res.req.method === 'HEAD' });
  res.status(answer.status);
  for (let i = 0; i < answer.lines.length; i += 2) res.setHeader(answer.lines[i]!, answer.lines[i + 1]!);
  res.end(answer.body);
  return true;
}

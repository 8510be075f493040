/**
 * The page-data answer (docs/navigation.md §1): the complete `<main>` of a page as JSON, with
 * the same status as the HTML, the marker header, and what the router needs to show it.
 */
import type { Response } from 'express';
import type { BuildManifest } from '../../protocol/manifest.js';
import { DATA_HEADER, type PageData } from '../../protocol/page-data.js';
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

/**
 * Sends page data once the props have settled (nothing when the client has gone meanwhile).
 * @param html the rendered `<main>` content
 */
export async function sendPageData(res: Response, html: string, parts: PageDataParts): Promise<void> {
  const props = await settledProps(parts.props);
  if (res.headersSent || res.destroyed) return;
  const { manifest, route } = parts;
  const body: PageData = {
    buildId: manifest.buildId,
    route: route ?? null,
    kind: parts.kind ?? (route === undefined ? undefined : manifest.routes[route]?.kind) ?? 'static',
    status: parts.status,
    title: parts.title,
    props,
    html,
    islands: parts.plan.islands,
    assets: parts.plan.assets,
  };
  res.status(parts.status).set(DATA_HEADER, '1').set('Cache-Control', parts.cacheControl).json(body);
}

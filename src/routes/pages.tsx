/**
 * The route table of the site's pages (product.md §1).
 */
import type { AnyPageRoute } from './types.js';
import { Start, type StartProps } from '../../views/pages/Start.js';
import { Over } from '../../views/pages/Over.js';
import { Voorwaarden } from '../../views/pages/Voorwaarden.js';
import { Privacy } from '../../views/pages/Privacy.js';

/** What the pages need from the rest of the app. */
export interface PageDependencies {
  /** Number of stored registrations; may be slow, and rejects when storage is down. */
  countRegistrations(): Promise<number>;
}

/**
 * The pages of product.md §1 that exist at this stage.
 * @param deps data access for loaders
 */
export function siteRoutes(deps: PageDependencies): AnyPageRoute[] {
  return [
    {
      path: '/',
      kind: 'ssr',
      title: 'Start',
      // Deferred: the shell streams first; the count fills its boundary (§6).
      loader: (): StartProps => ({ registrations: deps.countRegistrations().catch(() => null) }),
      View: Start,
    },
    { path: '/over', kind: 'static', title: 'Over deze site', View: Over },
    { path: '/voorwaarden', kind: 'static', title: 'Voorwaarden', View: Voorwaarden },
    { path: '/privacy', kind: 'static', title: 'Privacyverklaring', View: Privacy },
  ];
}

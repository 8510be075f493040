/**
 * The route table of the site's pages (docs/pages.md §1).
 */
import { declared } from '../../protocol/routes.js';
import type { Storage } from '../storage/types.js';
import { contactRoutes } from './contact.js';
import { registrationRoutes } from './registration.js';
import type { RateLimit } from '../filter/rate-limit.js';
import type { AnyPageRoute } from './types.js';
import { Start, type StartProps } from '../../views/pages/Start.js';
import { Over } from '../../views/pages/Over.js';
import { Voorwaarden } from '../../views/pages/Voorwaarden.js';
import { Privacy } from '../../views/pages/Privacy.js';

/**
 * The pages of docs/pages.md §1.
 * @param storage data access for loaders and actions
 * @param formRateLimit the per-address limit of form posts (configuration)
 */
export function siteRoutes(storage: Storage, formRateLimit: RateLimit): AnyPageRoute[] {
  return [
    {
      ...declared('/'),
      title: 'Start',
      // Deferred: the shell streams first; the count fills its boundary (§6).
      loader: (): StartProps => ({ registrations: storage.countRegistrations().catch(() => null) }),
      View: Start,
    },
    { ...declared('/over'), title: 'Over deze site', View: Over },
    { ...declared('/voorwaarden'), title: 'Voorwaarden', View: Voorwaarden },
    { ...declared('/privacy'), title: 'Privacyverklaring', View: Privacy },
    ...registrationRoutes(storage, formRateLimit),
    ...contactRoutes(storage, formRateLimit),
  ];
}

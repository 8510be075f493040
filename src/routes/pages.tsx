/**
 * The route table of the site's pages (docs/pages.md §1).
 */
import { declared, ROUTES } from '../../protocol/routes.js';
import type { FormDefinition } from '../forms/define.js';
import { formRoutes } from '../forms/route.js';
import type { Storage } from '../storage/types.js';
import { erasureRoutes } from './erasure.js';
import { registrationRoutes } from './registration.js';
import type { RateLimit } from '../filter/types.js';
import type { AnyPageRoute } from '../route-table.js';
import { HERO_ALT, Start, WELCOME, type StartProps } from '../../views/pages/Start.js';
import { Over } from '../../views/pages/Over.js';
import { Voorwaarden } from '../../views/pages/Voorwaarden.js';
import { Privacy } from '../../views/pages/Privacy.js';

/**
 * The pages of docs/pages.md §1.
 * @param storage data access for loaders and actions
 * @param formRateLimit the per-address limit of form posts (configuration)
 * @param retentionDays how long personal data is kept (configuration), which the privacy page says
 * @param forms the site's forms (src/forms/index.ts), each with its page and its thank-you page
 */
export function siteRoutes(storage: Storage, formRateLimit: RateLimit, retentionDays: number, forms: readonly FormDefinition[]): AnyPageRoute[] {
  const pages: AnyPageRoute[] = [
    {
      ...declared('/'),
      title: 'Start',
      heading: WELCOME,
      description:
        'Eiland is een kleine, snelle website in het Nederlands. Meld je in een minuut aan; alles werkt ook zonder JavaScript en op een trage telefoon.',
      shareImage: { name: 'hero', alt: HERO_ALT },
      // Deferred: the shell streams first; the count fills its boundary (docs/pages.md §6).
      loader: (): StartProps => ({ registrations: storage.countRegistrations().catch(() => null) }),
      View: Start,
    },
    {
      ...declared('/over'),
      title: 'Over deze site',
      description: 'Waarom Eiland zo snel is, waarom het ook zonder JavaScript werkt en hoe je de site met alleen het toetsenbord bedient.',
      View: Over,
    },
    {
      ...declared('/voorwaarden'),
      title: 'Voorwaarden',
      description: 'De voorwaarden waarmee je akkoord gaat als je je bij Eiland aanmeldt, en hoe je je aanmelding weer intrekt.',
      View: Voorwaarden,
    },
    {
      ...declared('/privacy'),
      title: 'Privacyverklaring',
      description: 'Welke gegevens Eiland van je bewaart als je je aanmeldt, waarvoor we ze gebruiken en hoe lang we ze houden.',
      View: () => <Privacy retentionDays={retentionDays} />,
    },
    ...forms.flatMap((form) => formRoutes(form, storage, formRateLimit)),
    ...registrationRoutes(storage),
    ...erasureRoutes(storage),
  ];
  // In the route table's order (protocol/routes.json), a page it does not declare (a test form's) last.
  const place = (path: string) => {
    const index = ROUTES.findIndex((route) => route.path === path);
    return index === -1 ? ROUTES.length : index;
  };
  return pages.sort((a, b) => place(a.path) - place(b.path));
}

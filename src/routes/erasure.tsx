/**
 * A person's own registration (docs/pages.md §7): its erasure, asked once more before anything is
 * deleted, and its download as JSON. Both are reached only through the confirmation's secret
 * address, so the id is masked wherever a path is logged.
 */
import type { Router } from 'express';
import { declared } from '../../protocol/routes.js';
import { ERASE_CONFIRMED, ERASED, Verwijderd, Verwijderen, type VerwijderenProps } from '../../views/pages/Verwijderen.js';
import { postChain } from '../forms/post.js';
import type { AnyPageRoute, PageRoute } from '../route-table.js';
import type { Storage } from '../storage/types.js';
import { registrations } from '../forms/registration.js';
import { noRegistration, registrationOf } from './registration.js';
import { methodNotAllowed, routeName } from './router.js';

/** Where an erasure ends: a page that says it is done and shows nothing of what was erased. */
const ERASED_PATH = '/aanmelding-verwijderd';

/** The download of a registration's data (not a page: a JSON attachment). */
const DOWNLOAD_PATH = '/aanmeldingen/:id/gegevens';

/**
 * The erasure's pages: `/aanmeldingen/:id/verwijderen` asks (GET, or a POST without the
 * confirmation) and erases (a POST with it: 303 to the page that says it is done), and that page.
 * @param storage where registrations are kept
 */
export function erasureRoutes(storage: Storage): AnyPageRoute[] {
  const path = '/aanmeldingen/:id/verwijderen';
  const ask: PageRoute<VerwijderenProps> = {
    ...declared(path),
    title: 'Aanmelding verwijderen',
    description: 'Verwijder je aanmelding bij Eiland en alles wat je daarbij hebt opgegeven.',
    noindex: "it names a person and is reached only through the confirmation's secret address",
    secretParams: ['id'],
    noRenderCache: "it shows a person's name",
    loader: async ({ req, csrfToken }) => {
      const { id, naam } = await registrationOf(storage, req);
      return { id, naam, csrfToken: csrfToken() };
    },
    View: Verwijderen,
    post: postChain<VerwijderenProps>({
      path,
      async action({ req, csrfToken, log }) {
        const { id, naam } = await registrationOf(storage, req);
        const body = req.body as Record<string, unknown> | undefined;
        if (body?.bevestigd !== ERASE_CONFIRMED) return { status: 200, props: { id, naam, csrfToken: csrfToken() }, outcome: 'asked' };
        // Of two erasures at once, one deletes; the other finds it gone, as a later request does.
        if (!(await registrations(storage).erase(id))) throw noRegistration();
        // Neither the id (a capability) nor anything of the person.
        log.info({ event: 'registration_erased' }, 'registration_erased');
        return { redirect: ERASED_PATH, outcome: 'erased' };
      },
    }),
  };
  const done: PageRoute = {
    ...declared(ERASED_PATH),
    title: 'Aanmelding verwijderd',
    heading: ERASED,
    description: 'Je aanmelding bij Eiland is verwijderd.',
    noindex: 'it is only the end of an erasure',
    View: Verwijderd,
  };
  return [ask, done];
}

/** Options of {@link addDownloadRoute}. */
export interface DownloadRouteOptions {
  /** Where registrations are kept. */
  storage: Storage;
}

/**
 * `GET /aanmeldingen/:id/gegevens`: the registration as stored, as a JSON attachment that no cache
 * keeps (docs/pages.md §7); another method is a 405.
 * @param router where the route is added (see `addHealthRoutes`)
 * @example addDownloadRoute(routes, { storage })
 */
export function addDownloadRoute(router: Router, { storage }: DownloadRouteOptions): void {
  router
    .route(DOWNLOAD_PATH)
    .all(routeName(DOWNLOAD_PATH))
    .get(async (req, res) => {
      const registration = await registrationOf(storage, req);
      res
        .status(200)
        .set('Content-Type', 'application/json; charset=utf-8')
        .set('Content-Disposition', 'attachment; filename="eiland-aanmelding.json"')
        .set('Cache-Control', 'no-store')
        .set('X-Robots-Tag', 'noindex')
        .send(JSON.stringify(registration, null, 2));
    })
    .all(methodNotAllowed('GET, HEAD'));
}

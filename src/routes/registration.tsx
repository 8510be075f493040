/**
 * The registration's confirmation page (docs/pages.md §7), which its form leads to; the form and
 * its thank-you page follow from its definition (src/forms/registration.ts).
 */
import { isUUID } from 'class-validator';
import type { Request } from 'express';
import { INTERESTS } from '../../protocol/registration.js';
import { declared } from '../../protocol/routes.js';
import { Bevestiging, type BevestigingProps } from '../../views/pages/Bevestiging.js';
import { HttpError } from '../errors.js';
import { registrations, type Registration } from '../forms/registration.js';
import type { Storage } from '../storage/types.js';
import type { AnyPageRoute, PageRoute } from '../route-table.js';

/**
 * Masks an e-mail address for display: first character of the local part, then `***`
 * (docs/pages.md §7: `a***@voorbeeld.nl`).
 * @param email a stored, valid address
 */
function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

/**
 * The confirmation's props from a stored registration: only what the page shows, the e-mail
 * address masked, interests by their labels.
 */
function confirmationProps(registration: Registration): Omit<BevestigingProps, 'csrfToken'> {
  return {
    id: registration.id,
    naam: registration.naam,
    interesses: registration.interesses.map((v) => INTERESTS[v as keyof typeof INTERESTS] ?? v),
    personen: registration.personen,
    email: maskEmail(registration.email),
  };
}

/** The answer to an id no registration has (any more): the same 404 whether it never was or was erased. */
export const noRegistration = (): HttpError => new HttpError(404, 'No registration with this id');

/**
 * The registration a request's `:id` names (the confirmation, its erasure and its download).
 * @param storage where registrations are kept
 * @param req a request of a route with `:id`
 * @throws HttpError 400 when the id is not a UUID, 404 when no registration has it (any more)
 */
export async function registrationOf(storage: Storage, req: Request): Promise<Registration> {
  const id = String(req.params.id);
  if (!isUUID(id)) throw new HttpError(400, 'Route parameter "id" is not a UUID');
  const registration = await registrations(storage).find(id);
  if (!registration) throw noRegistration();
  return registration;
}

/**
 * The registration's own pages beside its form's (docs/pages.md §7): its confirmation, which the
 * form leads to.
 * @param storage where registrations are kept
 */
export function registrationRoutes(storage: Storage): AnyPageRoute[] {
  const confirmation: PageRoute<BevestigingProps> = {
    ...declared('/aanmeldingen/:id'),
    title: 'Bedankt voor je aanmelding',
    description: 'De bevestiging van je aanmelding bij Eiland, met de gegevens die je hebt opgegeven.',
    noindex: "it shows a person's data to whoever has its address",
    // Whoever has the URL reads the registration: never logged whole.
    secretParams: ['id'],
    noRenderCache: "it shows a person's data: no copy of it is kept in memory",
    loader: async ({ req, csrfToken }) => ({ ...confirmationProps(await registrationOf(storage, req)), csrfToken: csrfToken() }),
    View: Bevestiging,
  };
  return [confirmation];
}

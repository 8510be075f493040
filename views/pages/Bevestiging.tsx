/**
 * The confirmation page `/aanmeldingen/:id` (docs/pages.md §7): name, interests, persons and
 * the masked e-mail address, and what the person can do with them: download them, or erase them.
 */
import { CSRF_FIELD } from '../../protocol/forms.js';
import { Image, useBuildImage } from '../Image.js';
import { BackToStart } from '../BackToStart.js';

/** Props of {@link Bevestiging}: only what the page shows (they travel in page data). */
export interface BevestigingProps {
  naam: string;
  /** Labels of the chosen interests. */
  interesses: string[];
  personen: number;
  /** The masked address, e.g. `a***@voorbeeld.nl`. */
  email: string;
  /** The registration's id (it is in the page's address): the download and the erasure name it. */
  id: string;
  /** The token of the erasure form. */
  csrfToken: string;
}

/** The page content of a stored registration. */
export function Bevestiging(registration: BevestigingProps) {
  const picture = useBuildImage('bevestiging');
  return (
    <>
      <h1>Bedankt voor je aanmelding, {registration.naam}</h1>
      {/* Decorative: the heading says it all, so screen readers skip it (alt=""). */}
      <Image {...picture} alt="" sizes="10rem" className="confirmation-picture" />
      <p>We hebben je aanmelding opgeslagen. Dit hebben we van je ontvangen:</p>
      <dl className="summary-list">
        <dt>Naam</dt>
        <dd>{registration.naam}</dd>
        <dt>Interesses</dt>
        <dd>{registration.interesses.join(', ')}</dd>
        <dt>Aantal personen</dt>
        <dd>{registration.personen}</dd>
        <dt>E-mailadres</dt>
        <dd>{registration.email}</dd>
      </dl>
      <h2>Jouw gegevens</h2>
      <p>
        <a href={`/aanmeldingen/${registration.id}/gegevens`} download="eiland-aanmelding.json">
          Download mijn gegevens
        </a>{' '}
        (alles wat we van je aanmelding bewaren, als JSON-bestand).
      </p>
      <form method="post" action={`/aanmeldingen/${registration.id}/verwijderen`}>
        <input type="hidden" name={CSRF_FIELD} value={registration.csrfToken} />
        <button type="submit">Verwijder mijn aanmelding</button>
      </form>
      <BackToStart />
    </>
  );
}

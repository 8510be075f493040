/**
 * The confirmation page `/aanmeldingen/:id` (docs/pages.md §7): name, interests, persons and
 * the masked e-mail address.
 */
import { Image, useBuildImage } from '../Image.js';

/** Props of {@link Bevestiging}: only what the page shows (they travel in page data). */
export interface BevestigingProps {
  naam: string;
  /** Labels of the chosen interests. */
  interesses: string[];
  personen: number;
  /** The masked address, e.g. `a***@voorbeeld.nl`. */
  email: string;
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
      <p>
        <a href="/">Terug naar de startpagina</a>
      </p>
    </>
  );
}

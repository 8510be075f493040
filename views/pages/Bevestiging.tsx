/**
 * The confirmation page `/aanmeldingen/:id` (product.md §1): name, interests,
 * persons and the masked e-mail address.
 */
import { INTERESTS } from '../../src/shared/registration.js';
import { Image, useBuildImage } from '../Image.js';
import type { Registration } from '../../src/storage/types.js';

/**
 * Masks an e-mail address for display: first character of the local part,
 * then `***` (product.md §1: `a***@voorbeeld.nl`).
 * @param email a stored, valid address
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

/** Props of {@link Bevestiging}: only what the page shows (they travel in page data). */
export interface BevestigingProps {
  naam: string;
  /** Labels of the chosen interests. */
  interesses: string[];
  personen: number;
  /** The masked address, e.g. `a***@voorbeeld.nl`. */
  email: string;
}

/**
 * The confirmation's props from a stored registration: the e-mail address masked.
 * @param registration as stored
 */
export function confirmationProps(registration: Registration): BevestigingProps {
  return {
    naam: registration.naam,
    interesses: registration.interesses.map((v) => INTERESTS[v as keyof typeof INTERESTS] ?? v),
    personen: registration.personen,
    email: maskEmail(registration.email),
  };
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

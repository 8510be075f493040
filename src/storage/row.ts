/**
 * A `registrations` row as either engine returns it, and its conversion to the contract's
 * `Registration` (one place for both engines).
 */
import type { Registration } from './types.js';

/** A row of `registrations`: SQLite keeps the interests as JSON text and the time as ISO text. */
export interface RegistrationRow extends Omit<Registration, 'interesses' | 'createdAt'> {
  interesses: string | string[];
  created_at: string | Date;
}

/**
 * The registration a row holds.
 * @param row as selected with `SELECT *`
 */
export function toRegistration(row: RegistrationRow): Registration {
  return {
    id: row.id,
    naam: row.naam,
    email: row.email,
    website: row.website,
    referentie: row.referentie,
    gebruikersnaam: row.gebruikersnaam,
    landcode: row.landcode,
    interesses: typeof row.interesses === 'string' ? (JSON.parse(row.interesses) as string[]) : row.interesses,
    personen: row.personen,
    createdAt: row.created_at instanceof Date ? row.created_at.toISOString() : row.created_at,
  };
}

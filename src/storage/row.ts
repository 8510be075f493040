/**
 * Rows as either engine returns them, and their conversion to the contract's types (one place
 * for both engines).
 */
import type { ContactMessage, NewContactMessage, NewRegistration, OutboxMessage, Registration } from './types.js';

/** The columns a registration is stored in besides its id, submission key and time, in the migration's order. */
export const REGISTRATION_COLUMNS = ['naam', 'email', 'website', 'referentie', 'gebruikersnaam', 'landcode', 'interesses', 'personen'] as const satisfies ReadonlyArray<keyof NewRegistration>;

/** The columns of a contact message besides its id, submission key and time. */
export const CONTACT_MESSAGE_COLUMNS = ['naam', 'email', 'onderwerp', 'bericht'] as const satisfies ReadonlyArray<keyof NewContactMessage>;

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

/** A row of `contact_messages`. */
export interface ContactMessageRow extends Omit<ContactMessage, 'createdAt'> {
  created_at: string | Date;
}

/**
 * The contact message a row holds.
 * @param row as selected with `SELECT *`
 */
export function toContactMessage(row: ContactMessageRow): ContactMessage {
  return {
    id: row.id,
    naam: row.naam,
    email: row.email,
    onderwerp: row.onderwerp,
    bericht: row.bericht,
    createdAt: row.created_at instanceof Date ? row.created_at.toISOString() : row.created_at,
  };
}

/** A leased outbox row, joined with the row it is about. */
export interface OutboxRow {
  id: string;
  lease: string;
  attempts: number;
  registration_id: string | null;
  contact_message_id: string | null;
  naam: string;
  email: string;
}

/**
 * The outbox message a leased row holds.
 * @param row as the lease selects it
 */
export function outboxMessage(row: OutboxRow): OutboxMessage {
  const registration = row.registration_id !== null;
  return {
    id: row.id,
    kind: registration ? 'registration' : 'contact',
    about: (registration ? row.registration_id : row.contact_message_id)!,
    naam: row.naam,
    email: row.email,
    attempts: row.attempts,
    lease: row.lease,
  };
}

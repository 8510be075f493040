/**
 * The registration form's names (docs/forms.md §2–§3), shared by the server's DTO
 * and the browser's island. No imports, no Node APIs.
 */

/** The fields of the registration form, in form order. */
export const REGISTRATION_FIELDS = [
  'naam',
  'email',
  'website',
  'referentie',
  'gebruikersnaam',
  'landcode',
  'interesses',
  'personen',
  'akkoord',
] as const;

/** A field name of the registration form. */
export type RegistrationField = (typeof REGISTRATION_FIELDS)[number];

/** The values of the `interesses` checkboxes, with their Dutch labels. */
export const INTERESTS = {
  techniek: 'Techniek',
  cultuur: 'Cultuur',
  sport: 'Sport',
  natuur: 'Natuur',
  muziek: 'Muziek',
} as const;

/** Value a checked `akkoord` box sends. */
export const CONSENT_VALUE = 'ja';

/** Hidden fields (docs/forms.md §3): CSRF token, per-render submission key, honeypot. */
export const CSRF_FIELD = '_csrf';
export const SUBMISSION_FIELD = '_submission';
export const HONEYPOT_FIELD = 'bedrijf';


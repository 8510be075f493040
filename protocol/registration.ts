/**
 * The registration form's values (docs/forms.md §2), shared by the server's DTO and the
 * browser's island.
 */

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

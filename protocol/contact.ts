/**
 * The contact form's names (docs/forms.md §9), shared by the server's DTO and the browser's
 * island.
 */

/** The values of the `onderwerp` select, with their Dutch labels, in order. */
export const SUBJECTS = {
  vraag: 'Vraag',
  klacht: 'Klacht',
  compliment: 'Compliment',
} as const;

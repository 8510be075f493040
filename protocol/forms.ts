/**
 * What forms share between the server's render and the browser's island (docs/forms.md §4–§5).
 */

/** The prefix of a page's title while its form shows errors: the server's 422 and the island alike. */
export const ERROR_TITLE_PREFIX = 'Fout: ';

/**
 * A page title with or without the error prefix.
 * @param title the title without the prefix, e.g. `Aanmelden · Eiland`
 * @param failing whether the form shows errors
 */
export function formTitle(title: string, failing: boolean): string {
  const plain = title.startsWith(ERROR_TITLE_PREFIX) ? title.slice(ERROR_TITLE_PREFIX.length) : title;
  return failing ? ERROR_TITLE_PREFIX + plain : plain;
}

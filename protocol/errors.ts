/**
 * The error page's titles (seed specification; docs/errors.md §1–§2): English, exact, rendered
 * by the error view on the server and shown by the router from page data.
 */

/** The title of each status the seed names. Exact strings. */
const TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  404: 'This page could not be found',
  405: 'Method Not Allowed',
  500: 'Internal Server Error',
};

/** The title of any other status. */
const FALLBACK_TITLE = 'An unexpected error has occurred';

/**
 * The English error-page title for an HTTP status.
 * @param status an HTTP status code, e.g. 404
 * @returns the exact title of docs/errors.md §1, e.g. "This page could not be found"
 */
export function errorTitle(status: number): string {
  return TITLES[status] ?? FALLBACK_TITLE;
}

/**
 * The `<title>` of an error page: `{status}: {title}` (docs/errors.md §2).
 * @param status HTTP status, e.g. 404 → "404: This page could not be found"
 */
export function errorPageTitle(status: number): string {
  return `${status}: ${errorTitle(status)}`;
}

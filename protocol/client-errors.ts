/**
 * Client errors on the wire (docs/errors.md §5–§6): the text shown in place of what failed, and
 * the report the browser sends with `navigator.sendBeacon`. The browser keeps within these
 * limits; the server refuses anything beyond them.
 */

/** The exact text shown in place of a failed island or page (docs/errors.md §5). */
export const APPLICATION_ERROR = 'Application error: a client-side exception has occurred (see the browser console for more information)';

/** Where reports go (docs/pages.md §1). */
export const CLIENT_ERRORS_PATH = '/_eiland/client-errors';

/** The limits of a report, in bytes (the whole) and characters (its fields). */
export const REPORT_LIMITS = {
  /** The whole JSON body: 8 KiB. */
  bytes: 8 * 1024,
  message: 2000,
  stack: 6000,
  url: 2048,
} as const;

/** An island's name as a report may carry it. */
export const ISLAND_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** A report as the browser sends it (JSON; every field a string). */
export interface ClientErrorReport {
  message: string;
  stack?: string;
  /** The page's URL (only its path is logged). */
  url: string;
  /** The island that failed; absent for the router. */
  island?: string;
  /** The page's request id (`<meta name="request-id">`). */
  requestId?: string;
}

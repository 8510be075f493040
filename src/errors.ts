/**
 * The one error hierarchy of the server (style.md §3). Every HTML or JSON error
 * answer is decided from an `HttpError`; anything else thrown becomes a 500.
 */

/** Titles of the generic error page, seed-spec §2 / product.md §3. Exact strings. */
const TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  404: 'This page could not be found',
  405: 'Method Not Allowed',
  500: 'Internal Server Error',
};

/** Title for any status not in the table (seed-spec §2). */
export const FALLBACK_TITLE = 'An unexpected error has occurred';

/**
 * The English error-page title for an HTTP status.
 * @param status an HTTP status code, e.g. 404
 * @returns the exact title of product.md §3, e.g. "This page could not be found"
 */
export function errorTitle(status: number): string {
  return TITLES[status] ?? FALLBACK_TITLE;
}

/** Options of {@link HttpError}. */
export interface HttpErrorOptions {
  /** The underlying error, kept for the log, never sent to the client. */
  cause?: unknown;
  /** Extra response headers, e.g. `Allow` for a 405. */
  headers?: Record<string, string>;
}

/**
 * An error that carries the HTTP status it must be answered with.
 * The message is for the log only; clients see the error page of the status.
 * @throws RangeError when `status` is not an error status (400–599)
 */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, message: string, options: HttpErrorOptions = {}) {
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`HttpError status must be an integer 400–599, got ${String(status)}`);
    }
    super(message, { cause: options.cause });
    this.name = 'HttpError';
    this.status = status;
    this.headers = options.headers ?? {};
  }
}

/**
 * Normalises anything thrown into an `HttpError`: body-parser errors keep their
 * 4xx status (413 too large, 400 unparsable), everything else becomes a 500
 * with the original as `cause`.
 * @param err anything thrown or passed to `next(err)`
 */
export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  const status = (err as { status?: unknown } | null)?.status;
  const expose = (err as { expose?: unknown } | null)?.expose === true;
  if (typeof status === 'number' && status >= 400 && status < 500 && expose) {
    return new HttpError(status, (err as Error).message, { cause: err });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new HttpError(500, `Unhandled error: ${message}`, { cause: err });
}

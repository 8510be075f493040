/**
 * The one error hierarchy of the server. Every error answer is decided from an `HttpError`
 * (docs/errors.md §3); anything else thrown becomes a 500.
 */

/** Options of {@link HttpError}. */
interface HttpErrorOptions {
  /** The underlying error, kept for the log, never sent to the client. */
  cause?: unknown;
  /** Extra response headers, e.g. `Allow` for a 405. */
  headers?: Record<string, string>;
  /**
   * Answer with this plain text instead of the error page: for requests that are not for a page
   * at all (a request for two hosts at once; docs/filter.md §9).
   */
  plain?: string;
}

/**
 * An error that carries the HTTP status it must be answered with.
 * The message is for the log only; clients see the error page of the status.
 * @throws RangeError when `status` is not an error status (400–599)
 */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The plain-text answer, when this error is answered without the error page. */
  readonly plain: string | undefined;

  constructor(status: number, message: string, options: HttpErrorOptions = {}) {
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`HttpError status must be an integer 400–599, got ${String(status)}`);
    }
    super(message, { cause: options.cause });
    this.name = 'HttpError';
    this.status = status;
    this.headers = options.headers ?? {};
    this.plain = options.plain;
  }
}

/**
 * Normalises anything thrown into an `HttpError`: an error that carries a 4xx `status` (the
 * body reader's 413 and 400, a static file handler's) keeps it, everything else becomes a 500
 * with the original as `cause`. Its message goes to the log only, never to the client.
 * @param err anything thrown or passed to `next(err)`
 */
export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new HttpError(status, err instanceof Error ? err.message : String(err), { cause: err });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new HttpError(500, `Unhandled error: ${message}`, { cause: err });
}

/**
 * The error responses (product.md §3): every error ends here and is answered
 * with the generic error page of its status. Nothing internal reaches the client.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { HttpError, toHttpError } from '../errors.js';
import { StorageUnavailableError } from '../storage/types.js';
import { ErrorPage, errorPageTitle } from '../../views/ErrorPage.js';
import type { Render } from './document.js';

/** The last handler before errors: no route matched → 404. */
export function notFound(): RequestHandler {
  return function notFound(_req, _res, next) {
    next(new HttpError(404, 'No route matches the path'));
  };
}

/**
 * Renders the error page for anything passed to `next(err)`. 5xx errors are
 * given to the request log (with stack); the client sees only status and title.
 * @param render the streaming renderer
 */
export function errorHandler(render: Render): ErrorRequestHandler {
  return function errorHandler(err, req, res, _next) {
    // Storage failures become the 503 page here, in one place (product.md §12).
    const error = err instanceof StorageUnavailableError ? new HttpError(503, err.message, { cause: err }) : toHttpError(err);
    // The request logger writes `res.err` with its stack on the request line (§12).
    if (error.status >= 500) res.err = error.cause instanceof Error ? error.cause : error;
    if (res.headersSent) {
      // The status is already on the wire: the only honest end is a broken response.
      res.destroy();
      return;
    }
    for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
    render(req, res, {
      status: error.status,
      title: errorPageTitle(error.status),
      content: <ErrorPage status={error.status} />,
      cacheControl: 'no-store',
      islands: [],
      props: { status: error.status },
      onShellError() {
        res.status(500).type('text/plain').send('500: Internal Server Error');
      },
    });
  };
}

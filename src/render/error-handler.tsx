/**
 * The one place where an error becomes a response (docs/errors.md §2–§4): every error of every
 * request ends here. A page path gets the error page of its status; a path outside the pages
 * (docs/filter.md §2) gets plain text. Nothing internal reaches the client.
 */
import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { errorPageTitle } from '../../protocol/errors.js';
import { ErrorPage } from '../../views/ErrorPage.js';
import { HttpError, toHttpError } from '../errors.js';
import { excludedPath } from '../filter/excluded.js';
import { endPlain } from '../plain-text.js';
import { clientGone } from '../request-end.js';
import { StorageUnavailableError } from '../storage/types.js';
import type { Render } from './types.js';

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
    // Nobody is there to read an answer: none is rendered, and the request's line says it was
    // aborted (docs/operations.md §2), whatever failed for want of its client.
    if (clientGone(req)) return;
    // Storage failures become the 503 page here, in one place (docs/operations.md §3).
    const error = err instanceof StorageUnavailableError ? new HttpError(503, err.message, { cause: err }) : toHttpError(err);
    // The request logger writes it with its stack on the request line (docs/operations.md §2).
    if (error.status >= 500) res.locals.failure = error.cause instanceof Error ? error.cause : error;
    if (res.headersSent) {
      // The status is already on the wire: the only honest end is a broken response.
      res.destroy();
      return;
    }
    for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
    const { target } = res.locals;
    const excluded = target.kind === 'path' && excludedPath(target.canonical) !== undefined;
    if (error.plain !== undefined || excluded) {
      endPlain(res, error.status, error.plain ?? STATUS_CODES[error.status] ?? 'Error');
      return;
    }
    render(req, res, {
      status: error.status,
      title: errorPageTitle(error.status),
      content: <ErrorPage status={error.status} />,
      // An error page is never indexed (docs/pages.md §9).
      meta: { noindex: true },
      cacheControl: 'no-store',
      islands: [],
      props: { status: error.status },
      onShellError() {
        res.status(500).type('text/plain').send('500: Internal Server Error');
      },
    });
  };
}

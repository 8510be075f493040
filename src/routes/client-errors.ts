/**
 * Browser error reports (docs/errors.md §6): `POST /_eiland/client-errors`, sent by
 * `navigator.sendBeacon` — JSON of at most 8 KiB, same-origin, rate-limited per
 * client, no CSRF token (a beacon cannot send one). Logged at `error` with
 * `"source":"client"` and the page's request id; answered 204.
 */
import { plainToInstance } from 'class-transformer';
import { IsOptional, IsString, Matches, MaxLength, validate } from 'class-validator';
import type { Router } from 'express';
import { CLIENT_ERRORS_PATH, ISLAND_NAME_PATTERN, REPORT_LIMITS, type ClientErrorReport } from '../../protocol/client-errors.js';
import { REQUEST_ID_PATTERN } from '../../protocol/request-id.js';
import { HttpError } from '../errors.js';
import type { CsrfTokens, RateLimits } from '../filter/types.js';
import { boundedText } from '../forms/read-body.js';
import { escapeControl, type PathMask } from '../logging.js';
import { methodNotAllowed, routeName } from './router.js';

/** A report as the browser sends it, checked within the limits of the protocol. */
class ReportDto implements ClientErrorReport {
  @IsString()
  @MaxLength(REPORT_LIMITS.message)
  message!: string;

  @IsOptional()
  @IsString()
  @MaxLength(REPORT_LIMITS.stack)
  stack?: string;

  @IsString()
  @MaxLength(REPORT_LIMITS.url)
  url!: string;

  @IsOptional()
  @IsString()
  @Matches(ISLAND_NAME_PATTERN)
  island?: string;

  @IsOptional()
  @IsString()
  @Matches(REQUEST_ID_PATTERN)
  requestId?: string;
}

/** The page's path only: a query string may hold personal data (docs/operations.md §2), and so may a path (masked). */
function pathOf(url: string, maskPath: PathMask): string {
  try {
    return maskPath(new URL(url, 'http://x').pathname);
  } catch {
    return '';
  }
}

/** Options of {@link addClientErrorsRoute}. */
export interface ClientErrorsRouteOptions {
  /** For the same-origin check (the token is not required). */
  csrf: CsrfTokens;
  /** For the endpoint's rate limit. */
  limits: RateLimits;
  /** For the reported page's path and any path in its message and stack. */
  maskPath: PathMask;
}

/**
 * Adds the endpoint.
 * @param router where the route is added (see `addHealthRoutes`)
 * @example addClientErrorsRoute(routes, { csrf, limits, maskPath })
 */
export function addClientErrorsRoute(router: Router, { csrf, limits, maskPath }: ClientErrorsRouteOptions): void {
  router
    .route(CLIENT_ERRORS_PATH)
    .all(routeName(CLIENT_ERRORS_PATH))
    .post(
      limits.perClient({ limit: 10, windowMs: 60_000 }, 'client error reports'),
      // sendBeacon sends text/plain.
      boundedText(['application/json', 'text/plain'], REPORT_LIMITS.bytes, ['utf-8', 'utf8']),
      csrf.protect({ tokenRequired: false }),
      async function clientError(req, res, next) {
        let body: unknown;
        try {
          body = typeof req.body === 'string' ? JSON.parse(req.body) : undefined;
        } catch {
          next(new HttpError(400, 'Client error report is not JSON'));
          return;
        }
        if (typeof body !== 'object' || body === null || Array.isArray(body)) {
          next(new HttpError(400, 'Client error report is not a JSON object'));
          return;
        }
        // Every field is a string: anything nested is refused before class-transformer, which
        // recurses into it (an array 2000 deep overflowed its stack: a 500).
        if (Object.values(body).some((value) => typeof value !== 'string')) {
          next(new HttpError(400, 'Client error report fields must be strings'));
          return;
        }
        const report = plainToInstance(ReportDto, body);
        const problems = await validate(report, { whitelist: true, forbidNonWhitelisted: true });
        if (problems.length > 0) {
          next(new HttpError(400, `Client error report invalid: ${problems.map((p) => p.property).join(', ')}`));
          return;
        }
        req.log.error(
          {
            event: 'client_error',
            source: 'client',
            // A stack or message may quote the page's URL: a confirmation page's holds its secret.
            message: escapeControl(maskPath(report.message)),
            stack: escapeControl(maskPath(report.stack ?? '')),
            page: escapeControl(pathOf(report.url, maskPath)),
            island: report.island,
            pageRequestId: report.requestId,
          },
          'client_error',
        );
        res.status(204).end();
      },
    )
    .all(methodNotAllowed('POST'));
}

/**
 * Logs (product.md §12): pino JSON lines, one `request completed` line per
 * request, secrets redacted, user input with control characters escaped.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, type DestinationStream, type Logger } from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';
import type { LogLevel } from './config.js';
import { requestIdFor } from './filter/request-id.js';

/** Paths whose request lines are logged at `debug` (assets and probes, §12). */
const QUIET_PATH = /^\/(assets\/|favicon\.ico$|healthz$|readyz$)/;

/**
 * Escapes control characters (C0, DEL, C1, U+2028/2029) in user input before it
 * is logged, so that no input can forge a line even in a pretty-printed log.
 * @param value user-controlled text, e.g. a request path
 * @returns the text with each control character written as `\uXXXX`
 */
export function escapeControl(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Creates the process logger.
 * @param level minimum level, from `LOG_LEVEL`
 * @param destination where JSON lines go (stdout by default; tests pass a stream)
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      // Defence in depth: these must never reach a log line (§12).
      redact: {
        paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', 'headers.cookie', 'headers.authorization'],
        censor: '[redacted]',
      },
    },
    // Synchronous writes: lines keep their order and none is lost at exit.
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return escapeControl(q === -1 ? url : url.slice(0, q));
}

function routeOf(res: ServerResponse): string | undefined {
  return (res as ServerResponse & { locals?: { route?: string } }).locals?.route;
}

/**
 * The request logging middleware: assigns the request id and writes one
 * `request completed` line per request with `reqId`, `method`, `path` (never
 * the query string), `status`, `responseTime` (ms) and `route`.
 * @param logger the process logger
 */
export function requestLogging(logger: Logger): HttpLogger {
  const summary = (req: IncomingMessage, res: ServerResponse, responseTime: number) => ({
    method: req.method,
    path: pathOf(req),
    status: res.statusCode,
    responseTime,
    route: routeOf(res),
  });
  return pinoHttp({
    logger,
    genReqId: requestIdFor,
    customAttributeKeys: { reqId: 'reqId' },
    quietReqLogger: true,
    quietResLogger: true,
    customLogLevel(req, res, err) {
      if (res.statusCode >= 500 || err) return 'error';
      if (res.statusCode >= 400) return 'warn';
      return QUIET_PATH.test(req.url ?? '') ? 'debug' : 'info';
    },
    customSuccessMessage: () => 'request completed',
    customErrorMessage: () => 'request completed',
    customSuccessObject: (req, res, val: { responseTime: number }) => summary(req, res, val.responseTime),
    customErrorObject: (req, res, err, val: { responseTime: number }) => ({ ...summary(req, res, val.responseTime), err }),
  });
}

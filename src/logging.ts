/**
 * Logs (docs/operations.md §2): pino JSON lines, one `request completed` line per
 * request, secrets redacted, user input with control characters escaped.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { RequestHandler } from 'express';
import type { LogLevel } from './config.js';
import { requestIdFor } from './filter/request-id.js';
import { excludedPath } from './filter/excluded.js';
import { sentStatus, serverAnswer } from './request-end.js';
import { parseTraceparent, type TraceContext } from './trace-context.js';

/**
 * Masks a path, or every path inside a text (a client error's message or stack); what holds
 * none is returned as it is. The route table's mask is made by `personalPathMask`
 * (src/routes/personal-paths.ts).
 * @example personalPathMask([{ path: '/aanmeldingen/:id', secretParams: ['id'] }])('/aanmeldingen//3f2b…/x') // '/aanmeldingen/[redacted]'
 */
export type PathMask = (text: string) => string;

/** Paths besides the excluded ones whose request lines are logged at `debug`: the probes (docs/operations.md §2). */
const PROBE_PATHS = new Set(['/healthz', '/readyz']);

/** Whether a request's line is written at `debug`: an excluded path or a probe, on its canonical path. */
function quiet({ target }: LineLocals): boolean {
  return target !== undefined && target.kind === 'path' && (excludedPath(target.canonical) !== undefined || PROBE_PATHS.has(target.canonical));
}

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
      // Defence in depth: these must never reach a log line (docs/operations.md §2).
      redact: {
        paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', 'headers.cookie', 'headers.authorization'],
        censor: '[redacted]',
      },
    },
    // Asynchronous writes keep their order and batch what arrives while one is under way, so
    // a busy server makes one system call for many lines (docs/performance.md §4). pino flushes
    // what is left when the process exits.
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

/** Where a logger made by {@link createLogger} writes its lines (another thread's lines go there too: src/mail/thread.ts). */
export function logDestination(logger: Logger): NodeJS.WritableStream {
  return (logger as unknown as Record<symbol, NodeJS.WritableStream>)[pino.symbols.streamSym]!;
}

/** How long {@link closeLog} waits for the last lines to be written before it gives up, in ms. */
const CLOSE_LOG_MS = 5000;

/**
 * Ends a logger's destination once every line given to it is written, in order. Exiting without
 * this loses the order: pino's exit hook writes what is buffered at once, ahead of a write still
 * waiting for a thread of the pool (busy with image work) or for a slow reader, so the last lines
 * could come before earlier ones, or not at all (docs/operations.md §5).
 * @param logger a logger made by {@link createLogger}; nothing may be logged once this resolves
 * @returns resolves when the destination has closed, has failed, or after 5 s (a reader gone)
 */
export function closeLog(logger: Logger): Promise<void> {
  const destination = logDestination(logger);
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, CLOSE_LOG_MS);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    destination.once('close', done);
    destination.once('error', done);
    destination.end();
  });
}

declare module 'http' {
  interface IncomingMessage {
    /** The request id (docs/filter.md §3): on every log line of the request. */
    id: string;
    /** The request's logger: every line carries `reqId`. */
    log: Logger;
  }
}

/** The longest request path a log line carries, in characters; a longer one is cut (docs/operations.md §2). */
export const LOGGED_PATH_MAX = 1024;

/**
 * A request path as logged: without its query, masked where it grants access to personal data
 * (see `personalPathMask`), control characters escaped, at most {@link LOGGED_PATH_MAX}
 * characters followed by `…[N chars]` when cut.
 */
function loggedPath(url: string, maskPath: PathMask): string {
  const q = url.indexOf('?');
  const path = maskPath(q === -1 ? url : url.slice(0, q));
  const shown = path.length > LOGGED_PATH_MAX ? `${path.slice(0, LOGGED_PATH_MAX)}…[${path.length} chars]` : path;
  return escapeControl(shown);
}

const PROCESS_LOGGER = Symbol('eiland.processLogger');
const REQUEST_LOGGER = Symbol('eiland.requestLogger');
const BINDINGS = Symbol('eiland.logBindings');
type LoggedRequest = IncomingMessage & { [PROCESS_LOGGER]?: Logger; [REQUEST_LOGGER]?: Logger; [BINDINGS]?: RequestBindings };

/** What every log line of a request carries: its id, and its trace context when it came with one. */
type RequestBindings = { reqId: string } & Partial<TraceContext>;

/**
 * `req.log`: the request's child logger, made on first use. One getter on the app's request
 * prototype (Express gives each app its own) rather than a property defined on every request,
 * which cost time on each and left each request object with a shape of its own
 * (docs/performance.md §4). Every request of the app has been tracked first.
 */
function requestLog(this: LoggedRequest): Logger {
  return (this[REQUEST_LOGGER] ??= this[PROCESS_LOGGER]!.child(this[BINDINGS]!));
}

/**
 * The logger of a tracked request, as `req.log` gives it: for a view of the request that is not
 * the request itself (the fast path's, src/fast-path.ts).
 * @param req a request {@link requestTracker}'s tracker has tracked
 */
export function requestLogger(req: IncomingMessage): Logger {
  return requestLog.call(req as LoggedRequest);
}

/** Options of {@link requestTracker}. */
interface RequestLoggingOptions {
  /** Masks paths that grant access to personal data (default: none). */
  maskPath?: PathMask;
}

/** What a request's line reads from its response's state when the response ends: `res.locals`, or the fast path's own. */
type LineLocals = Partial<Pick<Express.Locals, 'target' | 'route' | 'render' | 'shed' | 'failure'>>;

/** A response whose request is tracked: its state is read when it ends. */
export type TrackedResponse = ServerResponse & { locals: LineLocals };

/**
 * Starts a request's log: gives the request its id and trace context, and writes its one line
 * when its response ends. Made by {@link requestTracker}; run once per request, by the fast path
 * (src/fast-path.ts) or by the {@link requestLogging} middleware.
 * @param req the request
 * @param res its response; `res.locals` is read when it ends
 * @param started when the request arrived (`Date.now()`, ms)
 */
export type RequestTracker = (req: IncomingMessage, res: TrackedResponse, started: number) => void;

/** Whether a request has been tracked already: the fast path took it and handed it on. */
const tracked = (req: IncomingMessage) => (req as LoggedRequest)[BINDINGS] !== undefined;

/**
 * The request log (docs/operations.md §2): assigns the request id, and writes one
 * `request completed` line per request with `reqId`, `method`, `path` (as requested, never the
 * query string; masked where it grants access to personal data), `status`, `responseTime` (ms),
 * `route` and, for a page, `render` (`hit`, `miss` or `bypass`: the render cache); with `err`
 * for a 5xx. A request whose client left before its response ended gets `request aborted`
 * instead, with the status only where a head had gone out; one the server answered itself (a
 * 408, or the 400 of a body Node's parser refused) gets the status it wrote and no `render`, even
 * where the app went on to write a page nobody received. A valid W3C `traceparent` adds `traceId` and `spanId` to every
 * line of the request. Levels: 5xx `error` (a 503 that sheds load: `warn`, without a stack), 4xx
 * `warn`, assets and probes `debug`, the rest (and an abort before any head) `info`. It replaces
 * pino-http, which serialised every request into a child logger whether or not anything was
 * logged (docs/performance.md §4).
 * @param logger the process logger
 */
export function requestTracker(logger: Logger, { maskPath = (path) => path }: RequestLoggingOptions = {}): RequestTracker {
  return function trackRequest(req, res, started) {
    const url = req.url!;
    const reqId = requestIdFor(req);
    req.id = reqId;
    const trace = parseTraceparent(req.headers.traceparent);
    const bindings: RequestBindings = trace ? { reqId, ...trace } : { reqId };
    (req as LoggedRequest)[PROCESS_LOGGER] = logger;
    (req as LoggedRequest)[BINDINGS] = bindings;
    const complete = (err?: Error) => {
      res.off('finish', complete);
      res.off('close', complete);
      res.off('error', complete);
      // The server answered in the response's place (a body Node's parser refused, one that did
      // not come in time): its status went out, whatever the app wrote after it, which reached
      // nobody (docs/operations.md §2).
      const answered = serverAnswer(res);
      // Else closed before the app ended it: the client left. (An ended response whose last bytes
      // were still on their way when its connection closed was answered whole.)
      const ended = answered === undefined && (res.writableEnded || err !== undefined);
      const status = answered ?? (ended ? res.statusCode : sentStatus(res));
      const left = !ended && answered === undefined;
      const { locals } = res;
      const shed = locals.shed === true && status === 503 && !err;
      const failed = shed || status === undefined ? undefined : (err ?? locals.failure ?? (status >= 500 ? new Error(`failed with status code ${status}`) : undefined));
      const level = status === undefined ? 'info' : (status >= 500 && !shed) || err ? 'error' : status >= 400 ? 'warn' : quiet(locals) ? 'debug' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const line = { ...bindings, method: req.method, path: loggedPath(url, maskPath), status, responseTime: Date.now() - started, route: locals.route, render: answered === undefined ? locals.render : undefined };
      logger[level](failed ? { ...line, err: failed } : line, left ? 'request aborted' : 'request completed');
    };
    res.on('finish', complete);
    res.on('close', complete);
    res.on('error', complete);
  };
}

/**
 * The request logging middleware: tracks the request with {@link requestTracker}'s tracker unless
 * the fast path already has, and gives it `req.log`, a logger made only when a line is written.
 * @param track the app's tracker
 */
export function requestLogging(track: RequestTracker): RequestHandler {
  return function requestLogging(req, res, next) {
    if (!tracked(req)) track(req, res, Date.now());
    const proto = Object.getPrototypeOf(req) as object;
    if (!Object.hasOwn(proto, 'log')) Object.defineProperty(proto, 'log', { configurable: true, enumerable: false, get: requestLog });
    next();
  };
}

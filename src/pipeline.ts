/**
 * The request pipeline, declared once (ARCHITECTURE.md "The life of a request", docs/streaming.md
 * §7): the ordered steps every request passes. The Express app is built from them, one
 * `app.use` each, and the fast path (src/fast-path.ts) runs exactly them beside Express: each
 * step says how it is decided there. A step the fast path cannot decide sends the request to
 * Express, whose own run of the same steps answers it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import type { HttpError } from './errors.js';

/** A request the fast path is answering, as its steps see it. */
export interface BesideRequest {
  req: IncomingMessage;
  /** Its response, with the per-request state a step sets (`res.locals` on the Express path). */
  res: ServerResponse & { locals: Partial<Express.Locals> };
  /** The request through Express's getters (`secure`, `protocol`, `host`, `get`), without Express's prototype. */
  view: Request;
  /** The response's CSP nonce (docs/filter.md §4), in its headers and its body alike. */
  nonce: string;
}

/** How the fast path decides a step. */
export type Beside =
  /** Every request the fast path takes passes the step unchanged, for the reason given. */
  | { kind: 'given'; why: string }
  /** It runs the step's work as Express does (the log line, the metrics, the request's state). */
  | { kind: 'runs'; run(request: BesideRequest): void }
  /**
   * The step sets these header lines (name, value, …) on every response it passes; the filter also
   * issues the CSRF token a page's form takes, with the lines of its cookies (docs/filter.md §6).
   */
  | { kind: 'headers'; lines(request: BesideRequest): readonly string[]; token?(request: BesideRequest): { token: string; lines: string[] } }
  /** A request the step would refuse goes to Express, which refuses it with the error page. */
  | { kind: 'check'; refuses(request: BesideRequest): boolean }
  /** The routes: the fast path's own answer, a render cache hit, else Express's. */
  | { kind: 'answers' };

/** One step of the pipeline. */
export interface Step {
  /** Its name, e.g. `single host`: where another step is added (`after`). */
  name: string;
  /** What Express runs for it (an error handler for the error page). */
  handler: RequestHandler | ErrorRequestHandler;
  beside: Beside;
}

/** A step added to the declared ones: after the step of this name. */
export interface AddedStep {
  after: string;
  step: Step;
}

/**
 * The pipeline with steps added, in the order given, each right after the step it names (which
 * may be one added before it).
 * @throws RangeError when a step names none of the pipeline's
 */
export function withSteps(steps: readonly Step[], added: readonly AddedStep[]): Step[] {
  const out = [...steps];
  for (const { after, step } of added) {
    const at = out.findIndex((s) => s.name === after);
    if (at === -1) throw new RangeError(`No step "${after}" to add "${step.name}" after (steps: ${out.map((s) => s.name).join(', ')})`);
    out.splice(at + 1, 0, step);
  }
  return out;
}

/**
 * A step that sets a header on every response it passes, on both paths.
 * @param name the step's name
 * @param header e.g. `Permissions-Policy`
 * @param value e.g. `camera=()`
 */
export function headerStep(name: string, header: string, value: string): Step {
  const handler: RequestHandler = function setHeader(_req, res, next) {
    res.setHeader(header, value);
    next();
  };
  return { name, handler, beside: { kind: 'headers', lines: () => [header, value] } };
}

/**
 * A step that refuses some requests with an error page, on both paths.
 * @param name the step's name
 * @param refusal the error a request is refused with, or undefined to let it on (given the request
 *   through Express's getters)
 */
export function refusingStep(name: string, refusal: (req: Request) => HttpError | undefined): Step {
  const handler: RequestHandler = function refuse(req, _res, next) {
    next(refusal(req));
  };
  return { name, handler, beside: { kind: 'check', refuses: ({ view }) => refusal(view) !== undefined } };
}

/**
 * The fast path (docs/streaming.md §7): a render cache hit on a page of a fixed path, answered
 * beside Express with what the Express path would send, byte for byte but the request's own
 * values. Express's entry alone (its request and response prototypes, its router's walk) costs
 * more than the rest of such a hit (docs/performance.md §4). Everything else, and everything the
 * fast path cannot answer, goes to the Express app.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express, Request, Response } from 'express';
import type { Logger } from 'pino';
import { DATA_HEADER, DATA_MARKER } from '../protocol/page-data.js';
import { nonce } from './filter/security-headers.js';
import { requestLogger, type TrackedResponse } from './logging.js';
import type { BesideRequest, Step } from './pipeline.js';
import { fillProps, type HoleValues } from './render/holes.js';
import { htmlHeadLines } from './render/html-head.js';
import { pageDataAnswer } from './render/page-data.js';
import type { Mode, Render } from './render/types.js';
import { wantsWholeDocument } from './render/whole-document.js';
import type { AnyPageRoute } from './route-table.js';
import { handOver, holeValues, loadCacheable, pageRequest, type LoadedPage } from './routes/router.js';

/** Options of {@link fastPath}. */
interface FastPathOptions {
  /** The Express app: it answers what the fast path does not, and lends its request getters. */
  app: Express;
  /** The pipeline the app was built from (src/request-pipeline.ts): the fast path runs its steps. */
  steps: readonly Step[];
  /** The route table; its routes of a fixed path whose renders are cached are the fast path's. */
  routes: readonly AnyPageRoute[];
  /** The render cache around the page renderer. */
  render: Render;
  /** Where a failure of the fast path itself is logged (`fast_path_failed`). */
  logger: Logger;
}

/** A response the fast path tracks: its state for the log line and metrics, as `res.locals` has it on the Express path. */
type FastResponse = TrackedResponse & { locals: Partial<Express.Locals> };

/**
 * Whether the fast path may answer a route: a fixed path (no params) whose renders are cached.
 * It still hands a page to Express whenever the cache does not hold its version.
 */
export const fastPathRoute = (route: AnyPageRoute): boolean => !route.path.includes(':') && route.noRenderCache === undefined;

/** The raw request a view stands for. */
const RAW = Symbol('eiland.rawRequest');

/**
 * The request as Express's getters see it (`secure`, `protocol`, `host`, `get`, `query`), without
 * the cost of giving the request itself Express's prototype: a loader gets it as its `req`
 * (a fixed path has no route params), and the verify guard's fresh render its `log`, the
 * request's own logger (src/logging.ts).
 * @returns a maker of views, one prototype for all of them
 */
function expressViews(app: Express): (req: IncomingMessage) => Request {
  const proto = Object.create(app.request, {
    log: {
      get(this: { [RAW]: IncomingMessage }) {
        return requestLogger(this[RAW]);
      },
    },
  }) as Request;
  return (req) => Object.assign(Object.create(proto) as Request, { headers: req.headers, socket: req.socket, url: req.url, originalUrl: req.url, method: req.method, params: {}, [RAW]: req });
}

/**
 * The server's request listener: a GET of a fast-path page (its exact path, no query), as HTML or
 * as page data (docs/navigation.md §1), runs the pipeline's steps as each declares
 * (src/pipeline.ts): its state, log line and metrics as on the Express path, its header lines in
 * their order, its checks (a request one would refuse goes to Express); at the routes, its loader
 * is run and, when the render cache holds this version of the page, the page is sent in one
 * `writeHead` and `end`: the steps' headers with a fresh nonce, a form's token cookies, the page's
 * head (or the page data's), and the template filled with the request's values (with the verify
 * guard, a fresh render compared with it, as on the Express path). Otherwise the
 * request goes to Express, with the load under way handed over (src/routes/router.tsx), so the
 * loader runs once.
 * @param options the app, the steps it was built from, its route table, render cache and logger
 * @returns the listener for `http.createServer`
 * @throws TypeError when the steps have no `answers` step (the routes)
 * @example createServer(fastPath({ app, steps, routes, render, logger }))
 */
export function fastPath({ app, steps, routes, render, logger }: FastPathOptions): RequestListener {
  const pages = new Map(routes.filter(fastPathRoute).map((route) => [route.path, route]));
  const dataHeader = DATA_HEADER.toLowerCase();
  const answering = steps.findIndex((step) => step.beside.kind === 'answers');
  if (answering === -1) throw new TypeError('The pipeline has no step that answers (the routes)');
  const before = steps.slice(0, answering).map((step) => step.beside);

  const view = expressViews(app);

  /** A failure of the fast path itself: logged, and the request left to the Express path unless its head went out. */
  function failed({ req, res }: BesideRequest, route: AnyPageRoute, loading: Promise<LoadedPage>, error: unknown): void {
    logger.error({ event: 'fast_path_failed', reqId: req.id, err: error }, 'fast_path_failed');
    // Before anything was sent, the Express path answers instead (with its error page if it fails alike).
    if (res.headersSent) res.destroy();
    else {
      handOver(req, route, loading);
      app(req, res);
    }
  }

  // The step that issues a form's CSRF token beside Express, when one does.
  const issuer = before.find((beside) => beside.kind === 'headers' && beside.token !== undefined);
  const issue = issuer?.kind === 'headers' ? issuer.token : undefined;

  /**
   * Sends the page when the render cache holds it, with the steps' header lines, a form's token
   * cookies and the page's head (or the page data's), at once or (the verify guard) after its fresh
   * render.
   * @returns whether it was a hit
   */
  function sendHit(route: AnyPageRoute, request: BesideRequest, lines: string[], loading: Promise<LoadedPage>, loaded: LoadedPage, mode: Mode): boolean {
    const { req, res } = request;
    // The values of the holes the loader took, as the router gives them: the token (its cookies set
    // now, after the steps' headers), a fresh submission key (docs/streaming.md §6).
    const holes: HoleValues = holeValues(loaded.taken, () => {
      const issued = issue!(request);
      lines.push(...issued.lines);
      return issued.token;
    });
    // Only the verify guard's fresh render can fail here, after this function has returned.
    const onShellError = (error: unknown) => failed(request, route, loading, error);
    const page = pageRequest(route, 200, loaded.props, onShellError);
    page.cacheable = { fresh: () => pageRequest(route, 200, fillProps(loaded.props, holes), onShellError) };
    const at = { route: route.path, path: route.path, mode, values: { ...holes, nonce: request.nonce, requestId: req.id } };
    // What a fresh render of the verify guard reads of its response (`locals`, its close) a plain one has.
    return render.hit(request.view, res as unknown as Response, page, at, (body) => {
      if (res.headersSent || res.destroyed) return;
      if (page.meta.noindex) lines.push('X-Robots-Tag', 'noindex');
      if (mode === 'data') {
        const answer = pageDataAnswer(body, page, { ifNoneMatch: req.headers['if-none-match'], head: false });
        res.writeHead(answer.status, [...lines, ...answer.lines]).end(answer.body);
        return;
      }
      lines.push(...htmlHeadLines({ cacheControl: page.cacheControl, streamed: mode === 'stream', length: Buffer.byteLength(body) }));
      res.writeHead(page.status, lines).end(body);
    });
  }

  async function serve(route: AnyPageRoute, request: BesideRequest, lines: string[], loading: Promise<LoadedPage>): Promise<void> {
    const { req, res } = request;
    const loaded = await loading.catch(() => undefined);
    const mode = res.locals.pageData ? 'data' : wantsWholeDocument(req.headers['user-agent'] ?? '') ? 'whole' : 'stream';
    const answerable = loaded && (!loaded.taken.csrfToken || issue);
    if (answerable && sendHit(route, request, lines, loading, loaded, mode)) return;
    handOver(req, route, loading);
    app(req, res);
  }

  return function fastPath(req: IncomingMessage, res: ServerResponse) {
    const route = req.method === 'GET' ? pages.get(req.url!) : undefined;
    const data = req.headers[dataHeader];
    if (route === undefined || (data !== undefined && data !== DATA_MARKER)) return void app(req, res);
    const request: BesideRequest = { req, res: res as FastResponse, view: view(req), nonce: nonce() };
    const lines: string[] = [];
    for (const beside of before) {
      if (beside.kind === 'runs') beside.run(request);
      else if (beside.kind === 'headers') lines.push(...beside.lines(request));
      else if (beside.kind === 'check' && beside.refuses(request)) {
        // Express runs the steps again from the start and refuses it; what ran here is not run twice.
        return void app(req, res);
      }
    }
    // The route is known already, as the router's would be before the loader: a client that leaves
    // during it gets an aborted line with its route.
    request.res.locals.route = route.path;
    const loading = loadCacheable(route, request.view);
    serve(route, request, lines, loading).catch((error: unknown) => failed(request, route, loading, error));
  };
}

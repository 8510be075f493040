/**
 * Eiland's request pipeline (ARCHITECTURE.md "The life of a request"): every step a request
 * passes, in order, each with how the fast path decides it (src/pipeline.ts). `createApp` builds
 * the Express app from this list and gives the same list to the fast path.
 */
import type { RequestHandler, Router } from 'express';
import { DATA_HEADER, DATA_MARKER } from '../protocol/page-data.js';
import { requestContext } from './context.js';
import type { CsrfTokens } from './filter/types.js';
import type { ExcludedPath } from './filter/excluded.js';
import { filterHead } from './filter/head.js';
import { requestFilter } from './filter/index.js';
import { canonicalPaths, matcher } from './filter/matcher.js';
import { publicHost, publicHostCheck } from './filter/public-host.js';
import { NO_SNIFF, noSniff } from './filter/security-headers.js';
import { hostProblem, singleHost } from './host-header.js';
import { requestLogging, type RequestTracker } from './logging.js';
import { requestMetrics, type RequestObserver } from './metrics/http.js';
import type { Step } from './pipeline.js';
import { errorHandler, notFound } from './render/error-handler.js';
import type { Render } from './render/types.js';

/** The page-data marker's header as Node keys it. */
const DATA_HEADER_NAME = DATA_HEADER.toLowerCase();

/** A step's handler that lets every request on. */
const passOn: RequestHandler = (_req, _res, next) => next();

/** What the steps are made of. */
interface PipelineParts {
  /** The request log (src/logging.ts). */
  track: RequestTracker;
  /** The request durations (src/metrics/http.ts). */
  observe: RequestObserver;
  /** The handler of each excluded path (src/filter/excluded.ts). */
  excluded: Record<ExcludedPath, RequestHandler>;
  csrf: CsrfTokens;
  /** The probes' router (`/healthz`, `/readyz`), which answers any Host. */
  probes: Router;
  /** `PUBLIC_ORIGIN`'s origins, when set. */
  publicOrigins?: readonly string[];
  /** Every other route, in one router. */
  routes: Router;
  /** The page renderer, for the error page. */
  render: Render;
}

/**
 * The steps of the pipeline, in the order a request meets them.
 * @returns context, nosniff, log line, metrics, single host, matcher, filter, canonical path,
 *   probes, public host, routes, not found, error page
 */
export function requestPipeline({ track, observe, excluded, csrf, probes, publicOrigins, routes, render }: PipelineParts): Step[] {
  const overHttps = filterHead(true);
  const overHttp = filterHead(false);
  const foreign = publicOrigins && publicHostCheck(publicOrigins);
  return [
    {
      name: 'context',
      handler: requestContext(),
      // Its target is its route's exact path, without a query; page data is asked for by the marker alone.
      beside: {
        kind: 'runs',
        run: ({ req, res }) => void (res.locals = { target: { kind: 'path', path: req.url!, canonical: req.url!, search: '' }, pageData: req.headers[DATA_HEADER_NAME] === DATA_MARKER }),
      },
    },
    // On every response, whatever answers it (docs/filter.md §4, §8).
    { name: 'nosniff', handler: noSniff(), beside: { kind: 'headers', lines: () => NO_SNIFF } },
    { name: 'log line', handler: requestLogging(track), beside: { kind: 'runs', run: ({ req, res }) => track(req, res, Date.now()) } },
    { name: 'metrics', handler: requestMetrics(observe), beside: { kind: 'runs', run: ({ req, res }) => observe(req, res, performance.now()) } },
    // Before any path is looked at: a request for two sites at once is for none (docs/filter.md §9).
    { name: 'single host', handler: singleHost(), beside: { kind: 'check', refuses: ({ req }) => hostProblem(req) !== undefined } },
    // Every path of src/filter/excluded.ts, and only those, outside the filter (docs/filter.md §1–§2).
    { name: 'matcher', handler: matcher({ excluded }), beside: { kind: 'given', why: 'a page is at no excluded path' } },
    {
      name: 'filter',
      handler: requestFilter({ csrf }),
      beside: { kind: 'headers', lines: ({ req, view, nonce }) => (view.secure ? overHttps : overHttp).fill(req.id, nonce), token: ({ view }) => csrf.issueLines(view) },
    },
    { name: 'canonical path', handler: canonicalPaths(), beside: { kind: 'given', why: "a route's exact path is canonical" } },
    { name: 'probes', handler: probes, beside: { kind: 'given', why: "a probe's path is no page's" } },
    // Probes answer any Host (a load balancer asks by address); everything after, only this site's.
    foreign
      ? { name: 'public host', handler: publicHost(publicOrigins), beside: { kind: 'check', refuses: ({ view }) => foreign(view) !== undefined } }
      : { name: 'public host', handler: passOn, beside: { kind: 'given', why: 'without PUBLIC_ORIGIN every Host is the site' } },
    { name: 'routes', handler: routes, beside: { kind: 'answers' } },
    { name: 'not found', handler: notFound(), beside: { kind: 'given', why: 'the fast path answers a route it has' } },
    { name: 'error page', handler: errorHandler(render), beside: { kind: 'given', why: 'a failure beside Express is answered by Express' } },
  ];
}

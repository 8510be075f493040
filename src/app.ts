/**
 * The app: what a request meets, composed in that order
 * (ARCHITECTURE.md, "The life of a request"): the pipeline's steps, the routes, and what they need
 * (the renderer in its render cache, the image service, the CSRF tokens, the rate limits). What an
 * instance owns (storage, logger, metrics, lifecycle, the CSRF secret) it is given: by the site
 * (src/site.ts, where an instance is composed), or by a test that runs the app alone on a storage
 * of its own. It does not listen (src/server.ts does); development adds its steps to it (src/dev/steps.tsx).
 */
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import express, { Router } from 'express';
import type { DestinationStream, Logger } from 'pino';
import { productionAssets, type AssetsSource } from './assets/source.js';
import { favicon, staticAssets } from './assets/static.js';
import type { Config } from './config.js';
import { csrfTokens } from './filter/cross-site.js';
import { rateLimits } from './filter/rate-limit.js';
import { imageService } from './images/index.js';
import type { Optimizer } from './images/optimizer.js';
import { Lifecycle } from './lifecycle.js';
import { createLogger, requestTracker } from './logging.js';
import { requestObserver } from './metrics/http.js';
import { createMetrics, type Metrics } from './metrics/index.js';
import { countStorageErrors } from './metrics/storage.js';
import { PROJECT_ROOT } from './project-root.js';
import { fastPath } from './fast-path.js';
import { withSteps, type AddedStep } from './pipeline.js';
import { requestPipeline } from './request-pipeline.js';
import { createRenderCache } from './render/cache.js';
import { withRenderCache } from './render/cached-render.js';
import { createPageRenderer } from './render/renderer.js';
import { addBeheerRoutes, BEHEER } from './beheer/route.js';
import { beheerRoutes } from './beheer/routes.js';
import { addClientErrorsRoute } from './routes/client-errors.js';
import { addCrawlerRoutes } from './routes/crawlers.js';
import { addDownloadRoute } from './routes/erasure.js';
import { addHealthRoutes } from './routes/health.js';
import { siteRoutes } from './routes/pages.js';
import type { FormDefinition } from './forms/define.js';
import { FORMS } from './forms/index.js';
import { personalPathMask } from './routes/personal-paths.js';
import { addPageRoutes } from './routes/router.js';
import type { AnyPageRoute } from './route-table.js';
import type { Storage } from './storage/types.js';

/** Options of {@link createApp}: storage, and seams for the server and tests. */
export interface AppOptions {
  /** Where registrations and settings live (see `openStorage`). */
  storage: Storage;
  /** The process logger; by default one writing to `logStream` or stdout. */
  logger?: Logger;
  /** Where log lines go when no `logger` is given. */
  logStream?: DestinationStream;
  /** Shared with the site and its server; `ready` unless given. */
  lifecycle?: Lifecycle;
  /** The client build: the project's `dist/` read once unless given (development: the runner's). */
  assets?: AssetsSource;
  /** Render time-out in ms (docs/streaming.md §4: 10 000). */
  renderTimeoutMs?: number;
  /** Routes added after the site's own (tests add test-only pages here). */
  extraRoutes?: AnyPageRoute[];
  /** The site's forms, each with its pages (src/forms/index.ts `FORMS` unless given: the tests add one of their own). */
  forms?: readonly FormDefinition[];
  /** Public files (`/assets/…`, `/favicon.ico`, sources of `/_image`); the project's `public/` unless given. */
  publicDir?: string;
  /** Makes image variants; sharp, loaded on the first image request, unless given (tests wrap it). */
  imageOptimizer?: Optimizer;
  /** The app's instruments; new ones unless given (the site shares them with its metrics listener). */
  metrics?: Metrics;
  /** False: Express answers every request, render cache hits too (tests compare the fast path with it). */
  fastPath?: boolean;
  /** Steps added to the pipeline (src/pipeline.ts), each after the one it names: both paths run them. */
  steps?: readonly AddedStep[];
}

/** The app as a server runs it. */
export interface App {
  /**
   * The server's request listener: the fast path beside the Express app (src/fast-path.ts), or the
   * Express app alone where there is no fast path: the render cache off, or `fastPath: false`.
   */
  listener: RequestListener;
}

/**
 * Builds the Express app: request context, logging and metrics, the `Host` check, the filter's
 * matcher (excluded paths end at their handlers) and chain, canonical paths, one router for every
 * route, and the one error handler; and beside it the fast path, which answers a render cache
 * hit of a fixed path without it.
 * @param config validated configuration (see `loadConfig`)
 * @param options dependencies and test seams
 * @throws Error when the build manifest is missing, invalid or not this bundle's (run `npm run build`)
 * @throws TypeError when `config.csrfSecret` is not set
 */
export function createApp(config: Config, options: AppOptions): App {
  if (config.csrfSecret === undefined) throw new TypeError('createApp needs config.csrfSecret (from CSRF_SECRET or storage)');
  const logger = options.logger ?? createLogger(config.logLevel, options.logStream);
  const assets = options.assets ?? productionAssets(join(PROJECT_ROOT, 'dist'));
  const lifecycle = options.lifecycle ?? new Lifecycle('ready');
  const metrics = options.metrics ?? createMetrics();
  const publicDir = options.publicDir ?? join(PROJECT_ROOT, 'public');
  const storage = countStorageErrors(options.storage, metrics);
  const csrf = csrfTokens({ secret: config.csrfSecret, logger, publicOrigins: config.publicOrigins });
  const pageRenderer = createPageRenderer({ assets, timeoutMs: options.renderTimeoutMs ?? 10_000, metrics, publicOrigin: config.publicOrigins?.[0] });
  const render = withRenderCache(pageRenderer, { cache: createRenderCache(config.renderCache), metrics, assets });
  const limits = rateLimits({ storage, logger });
  const site = siteRoutes(storage, config.formRateLimit, config.retentionDays, options.forms ?? FORMS);
  const pages = [...site, ...(options.extraRoutes ?? [])];
  const beheer = beheerRoutes(options.forms ?? FORMS);
  const maskPath = personalPathMask([...pages, ...beheer]);
  const image = imageService(config, { buildDir: assets.dir, publicDir, defaultCacheDir: join(PROJECT_ROOT, 'data', 'image-cache'), logger, metrics, optimizer: options.imageOptimizer });

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('case sensitive routing', true);
  app.set('strict routing', true);

  const track = requestTracker(logger, { maskPath });
  const observe = requestObserver(metrics);
  const probes = Router({ caseSensitive: true, strict: true });
  addHealthRoutes(probes, { lifecycle });
  // Every route in one router: a request walks one route table.
  const routes = Router({ caseSensitive: true, strict: true });
  addClientErrorsRoute(routes, { csrf, limits, maskPath });
  addCrawlerRoutes(routes, { routes: site, origin: config.publicOrigins?.[0], disallowed: [BEHEER] });
  addBeheerRoutes(routes, { routes: beheer, storage, secret: config.csrfSecret, render, csrf, limits, metrics });
  addPageRoutes(routes, { routes: pages, render, csrf, limits, metrics });
  addDownloadRoute(routes, { storage });
  const steps = withSteps(
    requestPipeline({
      track,
      observe,
      excluded: { assets: staticAssets({ buildDir: join(assets.dir, 'assets'), publicDir }), image, favicon: favicon(publicDir) },
      csrf,
      probes,
      publicOrigins: config.publicOrigins,
      routes,
      render,
    }),
    options.steps ?? [],
  );
  for (const step of steps) app.use(step.handler);
  const fast = options.fastPath !== false && render.caching;
  return { listener: fast ? fastPath({ app, steps, routes: pages, render, logger }) : app };
}

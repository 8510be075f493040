/**
 * Composition of the Eiland app (the one place where the pieces meet).
 * `createApp` builds a testable Express app; it does not listen.
 */
import { join } from 'node:path';
import express, { Router, type Express } from 'express';
import type { DestinationStream, Logger } from 'pino';
import type { Config } from './config.js';
import { favicon, staticAssets } from './assets.js';
import { productionAssets, type AssetsSource } from './build/assets-source.js';
import { csrfTokens } from './filter/cross-site.js';
import { requestFilter } from './filter/index.js';
import { canonicalPaths, matcher } from './filter/matcher.js';
import { publicHost } from './filter/public-host.js';
import { rateLimits } from './filter/rate-limit.js';
import { Lifecycle } from './lifecycle.js';
import { ImageCache } from './images/cache.js';
import { imageHandler } from './images/handler.js';
import { JobQueue } from './images/jobs.js';
import { sharpOptimizer, type Optimizer } from './images/optimizer.js';
import { singleHost } from './host-header.js';
import { createLogger, requestLogging } from './logging.js';
import { createRenderer } from './render/document.js';
import { errorHandler, notFound } from './render/error-handler.js';
import { clientErrorsRouter } from './routes/client-errors.js';
import { healthRouter } from './routes/health.js';
import { siteRoutes } from './routes/pages.js';
import type { Storage } from './storage/types.js';
import { pageRouter } from './routes/router.js';
import { personalPathMask } from './routes/personal-paths.js';
import { reloadChannel } from './routes/reload.js';
import { PROJECT_ROOT } from './project-root.js';
import { createMetrics, type Metrics } from './metrics/index.js';
import { requestMetrics } from './metrics/http.js';
import { countStorageErrors } from './metrics/storage.js';
import { MAX_QUEUED_JOBS } from './shared/image-config.js';
import type { AnyPageRoute } from './routes/types.js';

/** Options of {@link createApp}: storage, and seams for the server and tests. */
export interface AppOptions {
  /** Where registrations and settings live (see `openStorage`). */
  storage: Storage;
  /** The process logger; by default one writing to `logStream` or stdout. */
  logger?: Logger;
  /** Where log lines go when no `logger` is given. */
  logStream?: DestinationStream;
  /** Shared with the server; `ready` unless given. */
  lifecycle?: Lifecycle;
  /** The client build: the project's `dist/` read once unless given (development: the watcher's). */
  assets?: AssetsSource;
  /** Render time-out in ms (product.md §6: 10 000). */
  renderTimeoutMs?: number;
  /** Routes added after the site's own (tests add test-only pages here). */
  extraRoutes?: AnyPageRoute[];
  /** Public files (`/assets/…`, `/favicon.ico`, sources of `/_image`); the project's `public/` unless given. */
  publicDir?: string;
  /** Makes image variants; sharp, loaded on the first image request, unless given (tests wrap it). */
  imageOptimizer?: Optimizer;
  /** The app's instruments; new ones unless given (the server shares them with its metrics listener). */
  metrics?: Metrics;
}

/**
 * Builds the Express app: logging, the filter's matcher and chain, canonical
 * paths, probes, pages, and the error page for everything else.
 * @param config validated configuration (see `loadConfig`)
 * @param options dependencies and test seams
 * @throws Error when the build manifest is missing, invalid or not this bundle's (run `npm run build`)
 * @throws TypeError when `config.csrfSecret` is not set
 */
export function createApp(config: Config, options: AppOptions): Express {
  const logger = options.logger ?? createLogger(config.logLevel, options.logStream);
  const assets = options.assets ?? productionAssets(join(PROJECT_ROOT, 'dist'));
  const lifecycle = options.lifecycle ?? new Lifecycle('ready');
  const metrics = options.metrics ?? createMetrics();
  const storage = countStorageErrors(options.storage, metrics);
  if (config.csrfSecret === undefined) throw new TypeError('createApp needs config.csrfSecret (from CSRF_SECRET or storage)');
  const csrf = csrfTokens({ secret: config.csrfSecret, logger, publicOrigins: config.publicOrigins });
  const render = createRenderer({ assets, timeoutMs: options.renderTimeoutMs ?? 10_000, metrics });
  const pages = [...siteRoutes(storage, config.formRateLimit), ...(options.extraRoutes ?? [])];
  const maskPath = personalPathMask(pages);
  const limits = rateLimits({ storage, logger });

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('case sensitive routing', true);
  app.set('strict routing', true);

  app.use(requestLogging(logger, { maskPath }));
  app.use(requestMetrics(metrics));
  // Before any path is looked at: a request for two sites at once is for none (RFC 9112 §3.2).
  app.use(singleHost());
  const publicDir = options.publicDir ?? join(PROJECT_ROOT, 'public');
  const jobs = new JobQueue(config.images.jobs, MAX_QUEUED_JOBS);
  metrics.watchImageJobs(() => ({ running: jobs.running, queued: jobs.queued }));
  const image = imageHandler({
    // Build output has content-hashed names; public files may change under the same name.
    roots: [
      { dir: join(assets.dir, 'assets', 'images'), hashed: true },
      { dir: join(publicDir, 'images'), hashed: false },
    ],
    cache: new ImageCache(config.images.cacheDir ?? join(PROJECT_ROOT, 'data', 'image-cache'), config.images.cacheMaxBytes),
    optimizer: options.imageOptimizer ?? sharpOptimizer(() => logger.info({ event: 'sharp_loaded' }, 'sharp_loaded')),
    formats: config.images.formats,
    jobs,
    logger,
    metrics,
  });
  // Every path of src/filter/excluded.ts, and only those, outside the filter.
  app.use(matcher({ excluded: { assets: staticAssets({ buildDir: join(assets.dir, 'assets'), publicDir }), image, favicon: favicon(publicDir) } }));
  app.use(requestFilter({ csrf }));
  app.use(canonicalPaths());
  // Every route in one router: a request walks one route table, not one router per module (issue 9).
  const routes = Router({ caseSensitive: true, strict: true });
  healthRouter(lifecycle, routes);
  // Probes answer any Host (a load balancer asks by address); everything after, only this site's.
  if (config.publicOrigins) routes.use(publicHost(config.publicOrigins));
  clientErrorsRouter({ csrf, limits, maskPath }, routes);
  // Development only (product.md §11): production has no reload route.
  if (assets.feed) reloadChannel({ feed: assets.feed, lifecycle }, routes);
  pageRouter({ routes: pages, render, csrf, limits, metrics }, routes);
  app.use(routes);
  app.use(notFound());
  app.use(errorHandler(render));
  return app;
}

/**
 * The image optimizer of one app (docs/images.md), composed: its source folders, disk cache,
 * sharp, job queue and handler.
 */
import { join } from 'node:path';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { MAX_QUEUED_JOBS } from '../../protocol/image-config.js';
import type { Config } from '../config.js';
import type { Metrics } from '../metrics/index.js';
import { ImageCache } from './cache.js';
import { imageHandler } from './handler.js';
import { JobQueue } from './jobs.js';
import { sharpOptimizer, type Optimizer } from './optimizer.js';

/** What the optimizer needs from the app. */
interface ImageServiceOptions {
  /** The build folder (its `assets/images/` holds the build's images). */
  buildDir: string;
  /** The public folder (its `images/` holds public images). */
  publicDir: string;
  /** The cache folder when `IMAGE_CACHE_DIR` is not set. */
  defaultCacheDir: string;
  logger: Logger;
  metrics: Metrics;
  /** Makes variants; sharp, loaded on the first image request, unless given (tests wrap it). */
  optimizer?: Optimizer;
}

/**
 * The `/_image` handler.
 * @param config `config.images`: formats, cache folder and bound, jobs
 */
export function imageService(config: Pick<Config, 'images'>, { buildDir, publicDir, defaultCacheDir, logger, metrics, optimizer }: ImageServiceOptions): RequestHandler {
  const jobs = new JobQueue(config.images.jobs, MAX_QUEUED_JOBS);
  metrics.watchImageJobs(() => ({ running: jobs.running, queued: jobs.queued }));
  return imageHandler({
    // Build output has content-hashed names; public files may change under the same name.
    roots: [
      { dir: join(buildDir, 'assets', 'images'), hashed: true },
      { dir: join(publicDir, 'images'), hashed: false },
    ],
    cache: new ImageCache(config.images.cacheDir ?? defaultCacheDir, config.images.cacheMaxBytes),
    optimizer: optimizer ?? sharpOptimizer(() => logger.info({ event: 'sharp_loaded' }, 'sharp_loaded')),
    formats: config.images.formats,
    jobs,
    logger,
    metrics,
  });
}

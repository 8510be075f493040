/**
 * `GET /_image?url=&w=&q=` (docs/images.md §4–§5): a variant of a local image, resized by
 * sharp (never enlarged), WebP or AVIF by `Accept` else the source's type, from a bounded disk
 * cache when it is there. Outside the request filter (docs/filter.md §2, §8): no request id header, no nonce, no
 * cookies, and every answer plain text or an image, never a page.
 */
import { createHash } from 'node:crypto';
import { basename, extname } from 'node:path';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { IMAGE_SOURCE_PREFIX, MAX_SOURCE_BYTES, RETRY_AFTER_SECONDS, SOURCE_TYPES, type OutputFormat } from '../../protocol/image-config.js';
import { pipeline } from 'node:stream';
import { endPlain } from '../plain-text.js';
import type { ImageCache, OpenedImage } from './cache.js';
import { JobQueue, QueueFull } from './jobs.js';
import type { ImageOutcome, Metrics } from '../metrics/index.js';
import { sharpVersion, SourceRefused, type Optimizer } from './optimizer.js';
import { parseImageParams } from './params.js';
import { findSource, type ImageRoot, type ImageSource } from './source.js';
import { notModified } from '../not-modified.js';
import { SourceUnreadable, variantMaker, type MadeImage, type VariantOrder } from './variants.js';

/** Options of {@link imageHandler}. */
interface ImageHandlerOptions {
  /** Where sources are looked for, in order. */
  roots: readonly ImageRoot[];
  cache: ImageCache;
  optimizer: Optimizer;
  /** Output formats offered by `Accept`, most preferred first (configuration). */
  formats: readonly OutputFormat[];
  jobs: JobQueue;
  /** The process logger (the debug line per image, `image_failed`). */
  logger: Logger;
  /** Counts each request's outcome. */
  metrics: Metrics;
}

/**
 * Part of every variant's identity, with sharp's version added on the first image request:
 * bumped when the recipe changes, so no cached file or ETag outlives it or a sharp upgrade.
 */
const RECIPE = 'eiland-image-1';
const CSP = "default-src 'none'";
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, max-age=0, must-revalidate';

/** Whether `Accept` names this exact media type with a quality above 0 (wildcards do not count, as in Next.js). */
function accepts(accept: string, type: string): boolean {
  return accept.split(',').some((part) => {
    const [range, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    if (range !== type) return false;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** A download name made only of safe characters, with the answer's extension. */
function fileName(source: ImageSource, type: string): string {
  const stem = basename(source.file, extname(source.file)).replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100) || 'image';
  return `${stem}.${type === 'image/jpeg' ? 'jpg' : type.slice('image/'.length)}`;
}

/** The media types a variant may have: the format asked for, else any the source may be in. */
function typesOf(wanted: OutputFormat | undefined): readonly string[] {
  return wanted ? [wanted] : Object.values(SOURCE_TYPES);
}

/** A request's refusal before any variant is looked for: its status and text, and `Allow` for a 405. */
interface Refusal {
  status: number;
  message: string;
  allow?: string;
}

/** The answer to any method but GET and HEAD. */
const METHOD_REFUSED: Refusal = { status: 405, message: 'Method Not Allowed', allow: 'GET, HEAD' };

/**
 * What a GET or HEAD asks for, once its query and its source have been checked.
 * @param formats the output formats offered by `Accept`, most preferred first
 */
async function orderOf(req: Request, roots: readonly ImageRoot[], formats: readonly OutputFormat[]): Promise<VariantOrder | Refusal> {
  const q = req.url.indexOf('?');
  const parsed = parseImageParams(q === -1 ? '' : req.url.slice(q + 1));
  if (!parsed.ok) return { status: 400, message: parsed.message };
  const { params } = parsed;
  const source = await findSource(roots, params.path);
  if (!source) return { status: 404, message: 'Not Found' };
  if (source.size > MAX_SOURCE_BYTES) return { status: 400, message: `"url" parameter is valid but the image file is larger than ${MAX_SOURCE_BYTES} bytes` };
  const accept = req.get('accept') ?? '';
  return { source, params, wanted: formats.find((type) => accepts(accept, type)) };
}

/**
 * The variant's identity, hashed: the recipe, the source as it is now, the parameters and the
 * format asked for. Its hex is the cache's key, its base64url the ETag.
 */
function variantDigest(recipe: string, { source, params, wanted }: VariantOrder): Buffer {
  const identity = [recipe, source.file, source.size, source.mtimeMs, params.width, params.quality, wanted ?? 'source'].join('\n');
  return createHash('sha256').update(identity).digest();
}

/**
 * Answers a variant that was not made: never cacheable, and without the variant's ETag
 * (docs/images.md §5). A fault of this server is thrown again: a plain 500, logged.
 * @param url the source's URL, for the log line
 */
function refuseVariant(req: Request, res: Response, error: unknown, url: string, count: (outcome: ImageOutcome) => void): void {
  if (error instanceof QueueFull) {
    // Load shedding, not a fault: logged at warn without a stack (docs/images.md §6).
    count('shed');
    res.locals.shed = true;
    res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    return endPlain(res, 503, 'Too many images are being made: try again shortly');
  }
  if (error instanceof SourceRefused) {
    count('refused');
    return endPlain(res, 400, error.message);
  }
  if (!(error instanceof SourceUnreadable)) throw error;
  count('unreadable');
  // A source sharp cannot read: the operator must see it; the client gets a 400, not a 500.
  req.log.warn({ event: 'image_failed', url, reason: error.message }, 'image_failed');
  return endPlain(res, 400, '"url" parameter is valid but the image cannot be read');
}

/** What answering a variant takes of the handler's parts. */
interface AnswerKit {
  cache: ImageCache;
  cacheFailed(error: unknown): undefined;
  count(outcome: ImageOutcome): void;
}

/** A variant found in the cache or just made, for the request that asked for it. */
interface Found {
  order: VariantOrder;
  /** The variant's identity, hashed (see `variantDigest`). */
  digest: Buffer;
  answer: OpenedImage | MadeImage;
  /** Whether it came from the cache. */
  cached: boolean;
}

/**
 * Answers a variant there is: 304 where the request's ETag matches, else 200 with its bytes (from
 * its file where the cache holds it).
 */
async function answerVariant(req: Request, res: Response, { order, digest, answer, cached }: Found, { cache, cacheFailed, count }: AnswerKit): Promise<void> {
  // Strong: the same identity always gives the same bytes (the cached file, or the recipe).
  const etag = `"${digest.toString('base64url')}"`;
  res.setHeader('Vary', 'Accept');
  res.setHeader('Cache-Control', order.source.hashed ? IMMUTABLE : REVALIDATE);
  res.setHeader('ETag', etag);
  const line = { event: 'image', url: IMAGE_SOURCE_PREFIX + order.params.path, width: order.params.width };
  if (notModified(req.get('if-none-match'), etag)) {
    if ('handle' in answer) await answer.handle.close();
    req.log.debug({ ...line, cache: 'not-modified' }, 'image');
    count('not_modified');
    res.status(304).end();
    return;
  }
  // A variant just made and stored is sent from its file too, so no connection holds it whole.
  if ('stored' in answer && answer.stored) answer = (await cache.open(digest.toString('hex'), [answer.type]).catch(cacheFailed)) ?? answer;
  req.log.debug({ ...line, format: answer.type, cache: cached ? 'hit' : 'miss', sharpMs: 'sharpMs' in answer ? answer.sharpMs : 0 }, 'image');
  count(cached ? 'hit' : 'miss');
  res.setHeader('Content-Type', answer.type);
  res.setHeader('Content-Disposition', `inline; filename="${fileName(order.source, answer.type)}"`);
  res.status(200);
  send(req, res, answer);
}

/**
 * Creates the `/_image` handler.
 * @example matcher({ excluded: { image: imageHandler({ roots, cache, optimizer: sharpOptimizer(), formats, jobs, logger }), … } })
 */
export function imageHandler({ roots, cache, optimizer, formats, jobs, logger, metrics }: ImageHandlerOptions): RequestHandler {
  const count = (outcome: ImageOutcome) => metrics.images.inc({ outcome });
  // A cache that cannot be read or written costs speed, never an answer: the operator is told.
  const cacheFailed = (error: unknown): undefined => {
    logger.warn({ event: 'image_cache_failed', dir: cache.dir, err: error }, 'image_cache_failed');
    return undefined;
  };
  const variant = variantMaker({ cache, optimizer, jobs, cacheFailed });
  // Read on the first image request, not at start-up (pages never need it).
  let recipe: string | undefined;

  // A fault rejects: Express 5 passes it to the error handler, a plain 500 with the error on the log line.
  return async function image(req, res) {
    res.setHeader('Content-Security-Policy', CSP);
    // Another method is refused at once, before any wait: its answer leaves before Node reads
    // what follows on the connection (an unframed body would be read as a next request).
    const order = req.method === 'GET' || req.method === 'HEAD' ? await orderOf(req, roots, formats) : METHOD_REFUSED;
    if ('status' in order) {
      count('refused');
      if (order.allow !== undefined) res.setHeader('Allow', order.allow);
      return endPlain(res, order.status, order.message);
    }
    recipe ??= `${RECIPE} sharp-${sharpVersion()}`;
    const digest = variantDigest(recipe, order);
    const key = digest.toString('hex');
    // A cached variant is known to be servable; anything else is made (or refused) first, so a
    // conditional request is answered 304 only where the request itself would be served.
    const opened = await cache.open(key, typesOf(order.wanted)).catch(cacheFailed);
    let answer: OpenedImage | MadeImage;
    try {
      answer = opened ?? (await variant(key, order));
    } catch (error) {
      return refuseVariant(req, res, error, IMAGE_SOURCE_PREFIX + order.params.path, count);
    }
    await answerVariant(req, res, { order, digest, answer, cached: opened !== undefined }, { cache, cacheFailed, count });
  };
}

/** The read-ahead per connection when a variant is streamed from its file, in bytes. */
const READ_CHUNK_BYTES = 16 * 1024;

/**
 * Sends a variant's bytes: from its open file with backpressure (a client that does not read
 * holds a file handle and a few 16 KiB buffers, never the whole variant), or from memory when the
 * cache could not keep it.
 */
function send(req: Request, res: Response, answer: OpenedImage | MadeImage): void {
  const size = 'handle' in answer ? answer.size : answer.data.length;
  res.setHeader('Content-Length', String(size));
  if ('data' in answer) {
    res.end(req.method === 'HEAD' ? undefined : answer.data);
    return;
  }
  if (req.method === 'HEAD') {
    res.end();
    void answer.handle.close();
    return;
  }
  // pipeline closes the file when the response ends or the client goes. The stream stops at the
  // variant's last byte rather than at a read that finds the end of the file, so the response
  // ends with its last write: a client that has all the bytes and closes at once is not taken
  // for one that left (docs/operations.md §2).
  pipeline(answer.handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES, start: 0, end: Math.max(size - 1, 0) }), res, (error) => {
    if (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE') req.log.warn({ event: 'image_cache_failed', err: error }, 'image_cache_failed');
  });
}

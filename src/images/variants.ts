/**
 * Making a variant (docs/images.md §6, §7): the source read, checked and transformed by the
 * optimizer inside a job slot, then stored in the disk cache (outside the slot: the cache's trim
 * is no work for sharp's slot to wait on). A second request for a variant being made waits for the
 * first.
 */
import { readFile } from 'node:fs/promises';
import type { OutputFormat } from '../../protocol/image-config.js';
import type { CachedImage, ImageCache } from './cache.js';
import type { JobQueue } from './jobs.js';
import { checkSource, sniffFormat, SourceRefused, TYPE_NOT_ALLOWED, type Optimizer } from './optimizer.js';
import type { ImageParams } from './params.js';
import type { ImageSource } from './source.js';

/** A source sharp could not read or decode (truncated, corrupt). */
export class SourceUnreadable extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'SourceUnreadable';
  }
}

const unreadable = (cause: unknown): never => {
  throw new SourceUnreadable(cause);
};

/** A variant made by sharp for this request (or one it waited for). */
export interface MadeImage extends CachedImage {
  sharpMs: number;
  /** Whether it is in the cache now, so it can be sent from its file. */
  stored: boolean;
}

/** What a variant is made of: its source, the parameters and the format asked for (none: the source's). */
export interface VariantOrder {
  source: ImageSource;
  params: ImageParams;
  wanted: OutputFormat | undefined;
}

/** Options of {@link variantMaker}. */
export interface VariantMakerOptions {
  cache: ImageCache;
  optimizer: Optimizer;
  jobs: JobQueue;
  /** What a cache that cannot be written does: the variant is sent from memory. */
  cacheFailed(error: unknown): undefined;
}

/**
 * Makes variants, one at a time per key.
 * @returns the variant of a key; rejects with `QueueFull`, `SourceRefused` or `SourceUnreadable`
 *   when it is not made, or with a fault of this server
 * @example variantMaker({ cache, optimizer, jobs, cacheFailed })(key, { source, params, wanted })
 */
export function variantMaker(options: VariantMakerOptions): (key: string, order: VariantOrder) => Promise<MadeImage> {
  const making = new Map<string, Promise<MadeImage>>();
  return function variant(key, order) {
    let pending = making.get(key);
    if (!pending) {
      pending = makeVariant(options, key, order).finally(() => making.delete(key));
      making.set(key, pending);
    }
    return pending;
  };
}

/** Reads, checks and transforms a source inside a job slot, then stores the variant. */
async function makeVariant({ cache, optimizer, jobs, cacheFailed }: VariantMakerOptions, key: string, { source, params, wanted }: VariantOrder): Promise<MadeImage> {
  const made = await jobs.run(async () => {
    const data = await readFile(source.file);
    const sniffed = sniffFormat(data);
    // Refused before sharp ever sees it (checkSource would refuse it too, after sharp).
    if (!sniffed) throw new SourceRefused(TYPE_NOT_ALLOWED);
    const sourceType = checkSource(sniffed, await optimizer.inspect(data).catch(unreadable));
    const type = wanted ?? sourceType;
    const started = performance.now();
    const output = await optimizer.transform(data, { width: params.width, quality: params.quality, type }).catch(unreadable);
    return { data: output, type, sharpMs: Math.round(performance.now() - started) };
  });
  const stored = (await cache.set(key, made).catch(cacheFailed)) ?? false;
  return { ...made, stored };
}

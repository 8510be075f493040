/**
 * The one image configuration (docs/images.md §1): the widths `/_image` serves, the
 * formats, and the limits. The Image view, the optimizer and the tests read it; the
 * environment may change only what `loadConfig` lets it (cache size, AVIF, jobs).
 * Shared: no imports, no Node APIs (views import it).
 */

/** Widths for images as wide as the viewport or most of it, in CSS pixels × density. */
export const DEVICE_WIDTHS = [640, 750, 828, 1080, 1200, 1920, 2048, 3840] as const;

/** Widths for small images (icons, thumbnails). */
const SMALL_WIDTHS = [16, 32, 48, 64, 96, 128, 256, 384] as const;

/** Every width `w` may be, ascending. */
export const IMAGE_WIDTHS: readonly number[] = [...SMALL_WIDTHS, ...DEVICE_WIDTHS];

/** The optimizer's path: outside the request filter (docs/filter.md §1). */
export const IMAGE_PATH = '/_image';

/** Every source `url` lies under this path; the files are `images/` of the build or of `public/`. */
export const IMAGE_SOURCE_PREFIX = '/assets/images/';

/** `q` when absent. */
export const DEFAULT_QUALITY = 75;

/** The longest `url` accepted, in characters. */
export const MAX_URL_LENGTH = 2048;

/** Output formats a browser can ask for with `Accept`, most preferred first. */
export type OutputFormat = 'image/avif' | 'image/webp';

/** The default: WebP only. AVIF is opt-in (`IMAGE_FORMATS`): slow to encode on small machines. */
export const DEFAULT_OUTPUT_FORMATS: readonly OutputFormat[] = ['image/webp'];

/** Every output format the configuration may name. */
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['image/avif', 'image/webp'];

/**
 * Source formats the optimizer reads, as sharp names them, decided by content, never by
 * extension: SVG (scripts, external references) and everything else are refused.
 */
export const SOURCE_FORMATS = ['jpeg', 'png', 'webp', 'avif'] as const;

/** The media type of each source format (the answer when `Accept` allows no output format). */
export const SOURCE_TYPES: Record<(typeof SOURCE_FORMATS)[number], string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
};

/** A source with more pixels than this is refused before it is decoded (decompression bombs). */
export const MAX_INPUT_PIXELS = 40_000_000;

/** A source file larger than this is refused before it is read, in bytes. */
export const MAX_SOURCE_BYTES = 20 * 1024 * 1024;

/** The disk cache's default bound (`IMAGE_CACHE_MAX_BYTES`), in bytes. */
export const DEFAULT_CACHE_MAX_BYTES = 256 * 1024 * 1024;

/** Requests that may wait for a sharp job; one more gets 503 with `Retry-After`. */
export const MAX_QUEUED_JOBS = 8;

/** `Retry-After` of that 503, in seconds. */
export const RETRY_AFTER_SECONDS = 2;

/**
 * The `/_image` URL of one variant.
 * @param src a local path under {@link IMAGE_SOURCE_PREFIX}
 * @param width one of {@link IMAGE_WIDTHS}
 * @param quality 1–100
 */
export function imageUrl(src: string, width: number, quality: number = DEFAULT_QUALITY): string {
  return `${IMAGE_PATH}?url=${encodeURIComponent(src)}&w=${width}&q=${quality}`;
}

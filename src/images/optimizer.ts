/**
 * The image transforms, with sharp loaded on first use only (docs/images.md §6): pages never load
 * it. Source formats are decided by content (sharp reads the header), never by extension.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { MAX_INPUT_PIXELS, SOURCE_FORMATS, SOURCE_TYPES } from '../../protocol/image-config.js';

/** What the header of a source says. */
interface SourceInfo {
  /** sharp's name of the format by content, e.g. `jpeg`, `svg`; undefined when unknown. */
  format: string | undefined;
  width: number;
  height: number;
}

/** One variant to make. */
interface Transform {
  /** The largest width wanted, in pixels; a smaller source is not enlarged. */
  width: number;
  /** 1–100. */
  quality: number;
  /** The media type to write: `image/webp`, `image/avif`, `image/jpeg` or `image/png`. */
  type: string;
}

/** The two steps of making a variant; tests wrap the real one to count calls. */
export interface Optimizer {
  /**
   * Reads a source's header (not its pixels).
   * @throws Error when the data is no image sharp can read
   */
  inspect(data: Buffer): Promise<SourceInfo>;
  /**
   * Makes a variant: oriented by its EXIF data, resized, metadata stripped.
   * @throws Error when the source cannot be decoded
   */
  transform(data: Buffer, transform: Transform): Promise<Buffer>;
}

/** The 400 message for a source whose content is not an allowed format. */
export const TYPE_NOT_ALLOWED = '"url" parameter is valid but image type is not allowed';

/** Why a source is refused (a 400 to the client); anything else sharp throws means it is unreadable. */
export class SourceRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceRefused';
  }
}

const ascii = (data: Buffer, start: number, end: number) => data.toString('latin1', start, end);

/**
 * The allowed format a file's first bytes announce, so that nothing else (SVG, HTML, TIFF, …)
 * is ever handed to libvips: JPEG, PNG, WebP (RIFF…WEBP) or AVIF (an `ftyp` box naming `avif`/`avis`).
 * @returns sharp's name of the format, or undefined
 */
export function sniffFormat(data: Buffer): (typeof SOURCE_FORMATS)[number] | undefined {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (data.length >= 12 && ascii(data, 0, 4) === 'RIFF' && ascii(data, 8, 12) === 'WEBP') return 'webp';
  if (data.length >= 16 && ascii(data, 4, 8) === 'ftyp') {
    const box = Math.min(data.readUInt32BE(0), data.length, 64);
    if (/avi[fs]/.test(ascii(data, 8, box))) return 'avif';
  }
  return undefined;
}

/**
 * Checks a source's header against the allow-list and the pixel limit.
 * @param sniffed what {@link sniffFormat} found in the first bytes
 * @param info what sharp read from the header
 * @returns the media type of the source
 * @throws SourceRefused for SVG or another format outside the allow-list, or too many pixels
 */
export function checkSource(sniffed: string | undefined, info: SourceInfo): string {
  const format = SOURCE_FORMATS.find((f) => f === info.format && f === sniffed);
  if (!format) throw new SourceRefused(TYPE_NOT_ALLOWED);
  if (info.width * info.height > MAX_INPUT_PIXELS) throw new SourceRefused(`"url" parameter is valid but the image has more than ${MAX_INPUT_PIXELS} pixels`);
  return SOURCE_TYPES[format];
}

/**
 * sharp's version, from its package.json found beside its entry point (resolved, not loaded:
 * sharp itself stays unloaded until the first image request).
 */
export function sharpVersion(): string {
  const entry = createRequire(import.meta.url).resolve('sharp');
  return (JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }).version;
}

type Sharp = typeof import('sharp').default;

/**
 * The sharp-backed optimizer. sharp is imported on the first call; libvips then runs each job
 * on one thread (the job queue decides how many run at once) without its operation cache.
 * @param onLoad called once, when sharp has been loaded (for the log)
 */
export function sharpOptimizer(onLoad?: () => void): Optimizer {
  let loading: Promise<Sharp> | undefined;
  const load = () =>
    (loading ??= import('sharp').then(({ default: sharp }) => {
      sharp.concurrency(1);
      sharp.cache(false);
      onLoad?.();
      return sharp;
    }));
  // failOn 'warning' (sharp's default): a truncated or corrupt file is refused, not half-decoded.
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'warning' as const };
  return {
    async inspect(data) {
      const sharp = await load();
      // The header only, without the pixel limit: checkSource refuses a bomb with its own message.
      const meta = await sharp(data, { limitInputPixels: false }).metadata();
      return { format: meta.format, width: meta.width ?? 0, height: meta.height ?? 0 };
    },
    async transform(data, { width, quality, type }) {
      const sharp = await load();
      const pipeline = sharp(data, options).rotate().resize({ width, withoutEnlargement: true });
      switch (type) {
        case 'image/webp':
          return pipeline.webp({ quality }).toBuffer();
        case 'image/avif':
          return pipeline.avif({ quality, effort: 2 }).toBuffer();
        case 'image/jpeg':
          return pipeline.jpeg({ quality, mozjpeg: true }).toBuffer();
        case 'image/png':
          return pipeline.png().toBuffer();
        default:
          throw new TypeError(`No encoder for ${type}`);
      }
    },
  };
}

/**
 * The Image view (docs/images.md §2): an `<img>` whose `srcset` lists `/_image` variants at the
 * configured widths, lazy unless `priority`, with its intrinsic size so nothing shifts.
 */
import { createContext, useContext } from 'react';
import { preload } from 'react-dom';
import type { BuiltImage } from '../protocol/manifest.js';
import { DEVICE_WIDTHS, IMAGE_SOURCE_PREFIX, IMAGE_WIDTHS, imageUrl } from '../protocol/image-config.js';

/** Props of {@link Image}. */
interface ImageProps {
  /** A local path under `/assets/images/`, e.g. from {@link useBuildImage}. */
  src: string;
  /** Required; `""` marks a decorative image that screen readers skip. */
  alt: string;
  /** Intrinsic width in pixels (reserves the space before the image arrives). */
  width: number;
  /** Intrinsic height in pixels. */
  height: number;
  /** The image's layout width per media condition, e.g. `(max-width: 42rem) 100vw, 42rem`: `w` descriptors. */
  sizes?: string;
  /** Above the fold: loaded at once with high priority and preloaded from the head. */
  priority?: boolean;
  /** `q` of every variant, 1–100 (default 75). */
  quality?: number;
  className?: string;
}

/** A `srcset` and the `src` for browsers without one. */
interface ImageSources {
  srcSet: string;
  src: string;
}

/**
 * The widths and descriptor kind of a `srcset`, as `next/image` chooses them: with `sizes`,
 * every configured width from the smallest `vw` share of the smallest device width up
 * (`w` descriptors); without, the widths that cover 1× and 2× the intrinsic width (`x`).
 */
function widthsFor(width: number, sizes: string | undefined): { widths: number[]; kind: 'w' | 'x' } {
  if (sizes !== undefined) {
    const shares = [...sizes.matchAll(/(^|\s)(1?\d?\d)vw/g)].map((m) => Number(m[2]) / 100);
    const smallest = shares.length > 0 ? Math.min(...shares) * DEVICE_WIDTHS[0] : 0;
    return { widths: IMAGE_WIDTHS.filter((w) => w >= smallest), kind: 'w' };
  }
  const nearest = (target: number) => IMAGE_WIDTHS.find((w) => w >= target) ?? IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1]!;
  return { widths: [...new Set([nearest(width), nearest(width * 2)])], kind: 'x' };
}

/**
 * The `srcset` and fallback `src` of an image (docs/images.md §2).
 * @param src a local path under `/assets/images/`
 * @param width intrinsic width in pixels
 * @param sizes the `sizes` attribute, if any
 * @param quality `q`, 1–100
 * @returns `srcSet` with `w` descriptors (with `sizes`) or `1x`/`2x`; `src` the largest variant
 */
export function imageSources(src: string, width: number, sizes: string | undefined, quality?: number): ImageSources {
  const { widths, kind } = widthsFor(width, sizes);
  const srcSet = widths.map((w, i) => `${imageUrl(src, w, quality)} ${kind === 'w' ? `${w}w` : `${i + 1}x`}`).join(', ');
  return { srcSet, src: imageUrl(src, widths[widths.length - 1]!, quality) };
}

/** Image sources by their arguments: the same few images are rendered on every request. */
const SOURCES = new Map<string, ImageSources>();
/** More distinct images than a site renders: past it the cache starts again (keys come from code, not input). */
const SOURCES_MAX = 256;

function cachedSources(src: string, width: number, sizes: string | undefined, quality: number | undefined): ImageSources {
  const key = JSON.stringify([src, width, sizes ?? null, quality ?? null]);
  let sources = SOURCES.get(key);
  if (sources === undefined) {
    if (SOURCES.size >= SOURCES_MAX) SOURCES.clear();
    sources = imageSources(src, width, sizes, quality);
    SOURCES.set(key, sources);
  }
  return sources;
}

/**
 * Renders a responsive image served through `/_image`.
 * @throws TypeError when `alt` is missing (a render error as well as a type error), when
 *   `src` is not under `/assets/images/`, or when `width`/`height` are not positive integers
 */
export function Image({ src, alt, width, height, sizes, priority = false, quality, className }: ImageProps) {
  if (typeof alt !== 'string') throw new TypeError(`Image ${src}: "alt" is required (use alt="" for a decorative image)`);
  if (typeof src !== 'string' || !src.startsWith(IMAGE_SOURCE_PREFIX)) throw new TypeError(`Image "${src}": "src" must be a path under ${IMAGE_SOURCE_PREFIX}`);
  for (const [name, value] of [['width', width], ['height', height]] as const) {
    if (!Number.isInteger(value) || value <= 0) throw new TypeError(`Image ${src}: "${name}" must be a positive integer, got ${String(value)}`);
  }
  const sources = cachedSources(src, width, sizes, quality);
  // One <link rel="preload"> in the head with the very srcset and sizes of the <img>, so the
  // browser fetches the variant it will use, once (React emits it before the shell's body).
  if (priority) preload(sources.src, { as: 'image', imageSrcSet: sources.srcSet, imageSizes: sizes, fetchPriority: 'high' });
  return (
    <img
      src={sources.src}
      srcSet={sources.srcSet}
      sizes={sizes}
      alt={alt}
      width={width}
      height={height}
      className={className}
      {...(priority ? { fetchPriority: 'high' as const } : { loading: 'lazy' as const, decoding: 'async' as const })}
    />
  );
}

/** The build's images, provided by the renderer from the manifest. */
export const BuildImagesContext = createContext<Readonly<Record<string, BuiltImage>> | null>(null);

/**
 * An image of the build, by its source name (`images/hero.svg` → `hero`).
 * @throws Error outside a page render, or when the build has no such image (run `npm run build`)
 */
export function useBuildImage(name: string): BuiltImage {
  const images = useContext(BuildImagesContext);
  if (!images) throw new Error(`Image "${name}" asked for outside a page render`);
  const image = images[name];
  if (!image) throw new Error(`Image "${name}" is not in this build: run "npm run build"`);
  return image;
}

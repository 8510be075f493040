/**
 * What a page says about itself to search engines and link previews (docs/pages.md §8–§9): its
 * description, whether it may be indexed, and, where the site's public origin is configured, its
 * canonical URL and Open Graph image. Absolute URLs come from `PUBLIC_ORIGIN` only, never from a
 * request's `Host`.
 */
import type { BuiltImage } from '../../protocol/manifest.js';
import { imageUrl } from '../../protocol/image-config.js';
import type { DocumentMeta } from '../../views/Document.js';

/** A page's metadata as its route declares it. */
export interface PageMeta {
  /** One or two Dutch sentences for people (absent on error pages). */
  description?: string;
  /** The page must not be indexed: `noindex` in a meta element and in `X-Robots-Tag`. */
  noindex: boolean;
  /** The build image that stands for the page when shared, with its alternative text. */
  shareImage?: { name: string; alt: string };
}

/** The width of an `og:image`, in pixels: the size link previews ask for. */
const SHARE_IMAGE_WIDTH = 1200;

/**
 * The document's metadata for one page.
 * @param meta what the route declares
 * @param origin the canonical public origin (the first of `PUBLIC_ORIGIN`), or undefined
 * @param path the canonical path of the page, e.g. `/over`
 * @param images the build's images (manifest)
 * @returns description and robots always; canonical URL and Open Graph only with an origin and
 *   only for pages that may be indexed
 * @throws Error when the share image is not in the build
 */
export function documentMeta(meta: PageMeta, origin: string | undefined, path: string, images: Record<string, BuiltImage>): DocumentMeta {
  if (origin === undefined || meta.noindex) return { description: meta.description, noindex: meta.noindex };
  let image: DocumentMeta['image'];
  if (meta.shareImage) {
    const built = images[meta.shareImage.name];
    if (!built) throw new Error(`Share image "${meta.shareImage.name}" is not in this build: run "npm run build"`);
    image = {
      url: origin + imageUrl(built.src, SHARE_IMAGE_WIDTH),
      width: SHARE_IMAGE_WIDTH,
      height: Math.round((built.height * SHARE_IMAGE_WIDTH) / built.width),
      alt: meta.shareImage.alt,
    };
  }
  return { description: meta.description, noindex: false, canonical: origin + path, image };
}

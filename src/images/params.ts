/**
 * The query of `GET /_image` (docs/images.md §4), checked as Next.js checks it and stricter:
 * every bad input is a 400 with a plain-text English message naming the parameter in quotes.
 */
import { DEFAULT_QUALITY, IMAGE_PATH, IMAGE_SOURCE_PREFIX, IMAGE_WIDTHS, MAX_URL_LENGTH } from '../../protocol/image-config.js';

/** A valid image request. */
export interface ImageParams {
  /** The source's path below `/assets/images/`, percent-decoded, e.g. `hero-ABC.jpg`. */
  path: string;
  /** One of the configured widths, in pixels. */
  width: number;
  /** 1–100. */
  quality: number;
}

/** The parsed query, or the message of its first fault. */
type ParamsResult = { ok: true; params: ImageParams } | { ok: false; message: string };

const refuse = (message: string): ParamsResult => ({ ok: false, message });

/** Each parameter's one value, or a fault: absent, or given more than once. */
function single(query: URLSearchParams, name: string, label: string): string | undefined | { fault: string } {
  const values = query.getAll(name);
  if (values.length > 1) return { fault: `"${name}" parameter${label} cannot be an array` };
  return values[0];
}

/**
 * Checks `url`: a local path under `/assets/images/`; no scheme, no `//`, no `\`, no `.` or
 * `..` segment and no control character after percent-decoding, no `?` or `#`, not `/_image`.
 * @returns the decoded path below the prefix, or the message
 */
function checkUrl(url: string): { path: string } | { fault: string } {
  if (url.length > MAX_URL_LENGTH) return { fault: '"url" parameter is too long' };
  if (url.startsWith('//')) return { fault: '"url" parameter cannot be a protocol-relative URL (//)' };
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return { fault: '"url" parameter is not allowed' };
  if (!url.startsWith('/')) return { fault: '"url" parameter is invalid' };
  let decoded: string;
  try {
    decoded = decodeURIComponent(url);
  } catch {
    return { fault: '"url" parameter is invalid' };
  }
  const decodedPath = decoded.split(/[?#]/, 1)[0];
  if (decodedPath === IMAGE_PATH || decodedPath?.startsWith(`${IMAGE_PATH}/`)) return { fault: '"url" parameter cannot be recursive' };
  if (/[\\?#\u0000-\u001f\u007f]/.test(url + decoded) || decoded.includes('//') || decoded.split('/').some((s) => s === '.' || s === '..')) {
    return { fault: '"url" parameter is invalid' };
  }
  if (!decoded.startsWith(IMAGE_SOURCE_PREFIX) || decoded.length === IMAGE_SOURCE_PREFIX.length) return { fault: '"url" parameter is not allowed' };
  return { path: decoded.slice(IMAGE_SOURCE_PREFIX.length) };
}

/**
 * Parses and checks the query of an image request.
 * @param search the raw query string, with or without its `?`
 * @returns the parameters, or the 400 message, e.g. `"w" parameter (width) of 641 is not allowed`
 */
export function parseImageParams(search: string): ParamsResult {
  const query = new URLSearchParams(search);
  const url = single(query, 'url', '');
  const w = single(query, 'w', ' (width)');
  const q = single(query, 'q', ' (quality)');
  for (const value of [url, w, q]) if (typeof value === 'object') return refuse(value.fault);
  if (!url) return refuse('"url" parameter is required');
  if (!w) return refuse('"w" parameter (width) is required');

  const checked = checkUrl(url as string);
  if ('fault' in checked) return refuse(checked.fault);

  if (!/^[0-9]{1,9}$/.test(w as string) || Number(w) <= 0) return refuse('"w" parameter (width) must be an integer greater than 0');
  const width = Number(w);
  if (!IMAGE_WIDTHS.includes(width)) return refuse(`"w" parameter (width) of ${width} is not allowed`);

  const quality = q === undefined ? DEFAULT_QUALITY : /^[0-9]{1,3}$/.test(q as string) ? Number(q) : Number.NaN;
  if (!(quality >= 1 && quality <= 100)) return refuse('"q" parameter (quality) must be an integer between 1 and 100');

  return { ok: true, params: { path: checked.path, width, quality } };
}

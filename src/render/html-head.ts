/**
 * The head of a rendered page's HTML (docs/streaming.md §1, docs/pages.md §2), set in one place
 * for a streamed page, a whole document and a page from the render cache alike.
 */
import type { Response } from 'express';

/**
 * Sets the status, `Content-Type`, `Cache-Control`, for streamed HTML `X-Accel-Buffering: no` (a
 * reverse proxy then passes the page on as it comes, so the shell still arrives first; nginx
 * honours it even where proxy_buffering is on), and for a page sent from a string its
 * `Content-Length`.
 * @param res the response, its head not yet sent
 * @param head the page's status, `Cache-Control`, whether it is streamed, and its length if known
 */
export function setHtmlHead(res: Response, { status, ...head }: { status: number } & HtmlHead): void {
  res.status(status);
  const lines = htmlHeadLines(head);
  for (let i = 0; i < lines.length; i += 2) res.setHeader(lines[i]!, lines[i + 1]!);
}

/** A page's head besides its status. */
interface HtmlHead {
  cacheControl: string;
  /** Whether the page is streamed (a shell first), not sent whole. */
  streamed: boolean;
  /** The body's length in bytes, for a page sent whole from a string. */
  length?: number;
}

/**
 * The headers {@link setHtmlHead} sets, as `writeHead` takes them (name, value, …), for the fast
 * path (src/fast-path.ts) too.
 * @returns a new array
 */
export function htmlHeadLines({ cacheControl, streamed, length }: HtmlHead): string[] {
  const lines = ['Content-Type', 'text/html; charset=utf-8', 'Cache-Control', cacheControl];
  if (streamed) lines.push('X-Accel-Buffering', 'no');
  // Set, not left to Node: the fast path's writeHead sends its head before the body is known.
  if (length !== undefined) lines.push('Content-Length', String(length));
  return lines;
}

/**
 * The head of a rendered page's HTML (docs/streaming.md §1, docs/pages.md §2), set in one place
 * for a streamed page, a whole document and a page from the render cache alike.
 */
import type { Response } from 'express';

/**
 * Sets the status, `Content-Type`, `Cache-Control` and, for streamed HTML, `X-Accel-Buffering: no`:
 * a reverse proxy then passes the page on as it comes, so the shell still arrives first (nginx
 * honours it even where proxy_buffering is on).
 * @param res the response, its head not yet sent
 * @param head the page's status and `Cache-Control`, and whether it is streamed
 */
export function setHtmlHead(res: Response, { status, cacheControl, streamed }: { status: number; cacheControl: string; streamed: boolean }): void {
  res.status(status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', cacheControl);
  if (streamed) res.setHeader('X-Accel-Buffering', 'no');
}

/**
 * Plain-text answers of the paths outside the pages (docs/images.md §5, docs/filter.md §2): refusals
 * of the image optimizer, the end of an excluded path, a bad `Host`. Never cacheable, and
 * without the body ETag Express's `send` would add (a refusal must carry no validator a cache
 * could revalidate against).
 */
import type { ServerResponse } from 'node:http';

/**
 * Ends a response with a status and a short text (no body for HEAD).
 * @param res a response whose head is not sent yet
 * @param status an HTTP status, e.g. 400
 * @param text the body, e.g. `"w" parameter (width) of 641 is not allowed`
 */
export function endPlain(res: ServerResponse, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(res.req.method === 'HEAD' ? undefined : text);
}

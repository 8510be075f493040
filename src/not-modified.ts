/**
 * Conditional GET (RFC 9110 §13.1.2): whether a request's `If-None-Match` names a response's
 * ETag, for the answers that carry one (an image variant, docs/images.md; page data,
 * docs/navigation.md §1).
 */

/**
 * Whether `If-None-Match` names this ETag (or is `*`), compared weakly as RFC 9110 §13.1.2 says.
 * Not Express's `req.fresh`: it ignores the header when the request also says `Cache-Control:
 * no-cache`, as fetch() does on every conditional request.
 * @param ifNoneMatch the request's header, if any
 * @param etag the response's strong ETag, quoted, e.g. `"abc"`
 */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

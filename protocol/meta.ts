/**
 * The `<meta name>`s a page carries for its scripts (docs/filter.md §3, docs/navigation.md §3,
 * docs/development.md §2): written by the document view, read by the router, the island
 * runtime and the reload client.
 */
export const META = {
  /** The response's request id, sent along with client error reports. */
  requestId: 'request-id',
  /** URL of the build manifest's public copy. */
  manifest: 'eiland-manifest',
  /**
   * Where islands are: the island runtime's URL, then the modules it needs, space-separated; the
   * router loads them after the first paint (docs/islands.md §3).
   */
  afterPaint: 'eiland-islands',
  /** Development only: the id of the build the page shows (client build and server process). */
  build: 'eiland-build',
} as const;

/**
 * The attribute on `<html>` that marks a document served to a crawler (bots by `isbot`, and text
 * browsers): the router then prefetches nothing (docs/navigation.md §6). The server already
 * recognises them, so the router needs no pattern of its own.
 */
export const BOT_ATTRIBUTE = 'data-bot';

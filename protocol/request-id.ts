/**
 * Request ids (docs/filter.md §3): an incoming `X-Request-Id`, and the page's id that a client
 * error report carries back, are kept only when short and of a safe alphabet (no log injection).
 */

/** What a request id may look like: 1–64 of `A–Z a–z 0–9 . _ -`. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** The response header that carries it. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/ §3.2): a valid `traceparent` request
 * header puts its trace id and the caller's span id on every log line of the request, so an
 * operator can follow one request from the load balancer through Eiland (docs/operations.md §2).
 * Pure: no I/O.
 */

/** The ids a valid `traceparent` carries, as lower-case hex. */
export interface TraceContext {
  /** 32 hex digits, not all zero. */
  traceId: string;
  /** The caller's span (the header's `parent-id`): 16 hex digits, not all zero. */
  spanId: string;
}

/** version-traceid-parentid-flags of version 00; later versions may append `-…` fields. */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * Reads a `traceparent` header value as the specification says a receiver must.
 * @param header the header's value; several values (an array) are invalid
 * @returns the trace and span id, or undefined for anything invalid: another length or
 *   alphabet (upper case included), version `ff`, an all-zero id, or fields after those of
 *   version 00 in a version-00 header
 */
export function parseTraceparent(header: string | string[] | undefined): TraceContext | undefined {
  if (typeof header !== 'string') return undefined;
  const match = TRACEPARENT.exec(header.trim());
  if (!match) return undefined;
  const [, version, traceId, spanId, , rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId };
}

/**
 * The headers the filter sets on every filtered response (docs/filter.md §3–§5, §7), in the order
 * it sets them: `X-Request-Id`, helmet's with the CSP nonce, `Content-Language: nl` and
 * `Vary: X-Eiland-Data`. Computed once per scheme: the filter chain and the fast path
 * (src/fast-path.ts) fill the same lines with a response's request id and nonce.
 */
import { DATA_HEADER } from '../../protocol/page-data.js';
import { REQUEST_ID_HEADER } from '../../protocol/request-id.js';
import { securityHeaders } from './security-headers.js';

/** The filter's headers for one scheme. */
export interface FilterHead {
  /**
   * One response's lines, as `writeHead` takes them: name, value, name, value, …
   * @param requestId the request's id (docs/filter.md §3)
   * @param nonce the response's CSP nonce (docs/filter.md §4)
   * @returns a new array
   */
  fill(requestId: string, nonce: string): string[];
}

/**
 * The filter's headers over https or plain http.
 * @param https whether the response goes over https (`req.secure`)
 * @throws Error when helmet sets no CSP with the nonce
 */
export function filterHead(https: boolean): FilterHead {
  const security = securityHeaders(https);
  const lines = [[REQUEST_ID_HEADER, ''], ...security.lines, ['Content-Language', 'nl'], ['Vary', DATA_HEADER]].flat();
  const cspAt = 2 * (1 + security.csp) + 1;
  const [before, after] = security.around;
  return {
    fill(requestId, nonce) {
      const filled = lines.slice();
      filled[1] = requestId;
      filled[cspAt] = before + nonce + after;
      return filled;
    },
  };
}

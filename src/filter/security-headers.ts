/**
 * Filter step 2: security headers through helmet (docs/filter.md §4), with a fresh
 * CSP nonce per response and the changes to helmet's defaults that docs/filter.md §4 gives; and
 * `X-Content-Type-Options: nosniff`, which every response of the app gets, filtered or not.
 */
import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/** Stands for the nonce while helmet computes the headers once. */
const NONCE_SLOT = 'EILAND-NONCE-SLOT';

function helmetFor(https: boolean): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // No 'unsafe-inline': every inline and module script carries the nonce.
        scriptSrc: ["'self'", `'nonce-${NONCE_SLOT}'`],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        // Only over https: over plain http it would break every sub-resource.
        upgradeInsecureRequests: https ? [] : null,
      },
    },
    // helmet's default no-referrer makes Chromium send `Origin: null` on same-origin posts.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: https,
    xFrameOptions: { action: 'deny' }, // agrees with frame-ancestors 'none'
    // Off: a change of opener policy puts each arrival from another site into a new browsing
    // context group, a renderer started afresh, and Eiland opens no window worth guarding.
    crossOriginOpenerPolicy: false,
    // Off: headers no browser Eiland supports reads any more (docs/filter.md §4). X-XSS-Protection
    // switched off an XSS filter that Chromium, Edge and Safari have since removed and Firefox
    // never had; X-Download-Options was Internet Explorer's alone.
    xXssProtection: false,
    xDownloadOptions: false,
    // Set on every response, filtered or not, by noSniff().
    xContentTypeOptions: false,
  }) as unknown as RequestHandler;
}

/**
 * Sets `X-Content-Type-Options: nosniff` on every response of the app (docs/filter.md §4, §8):
 * pages and page data, the answers of excluded paths (assets, images, the favicon) and the plain
 * answers before the filter (a bad `Host`). The one place that sets it; runs before anything
 * that can answer a request.
 * @example app.use(noSniff())
 */
export function noSniff(): RequestHandler {
  const [name, value] = NO_SNIFF;
  return function noSniff(_req, res, next) {
    res.setHeader(name, value);
    next();
  };
}

/** The header every response gets (see {@link noSniff}), as `writeHead` takes it. */
export const NO_SNIFF: readonly [string, string] = ['X-Content-Type-Options', 'nosniff'];

/** Random bytes for nonces, drawn 4 KiB at a time: one call into the CSPRNG per 256 responses. */
let pool = Buffer.alloc(0);
let offset = 0;

/**
 * A fresh CSP nonce (docs/filter.md §4): 128 random bits, base64, never handed out twice.
 * @returns 24 characters of base64
 */
export function nonce(): string {
  if (offset + 16 > pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  offset += 16;
  return pool.toString('base64', offset - 16, offset);
}

/** The headers helmet sets, in its order, with the CSP's value cut where the nonce goes. */
export interface SecurityHeaders {
  /** `[name, value]` pairs, the CSP's among them with `''` for its value. */
  lines: Array<[string, string]>;
  /** The CSP's index in `lines`. */
  csp: number;
  /** The CSP's value before and after the nonce. */
  around: [string, string];
}

/**
 * The headers helmet sets, computed once per scheme: helmet is asked with a placeholder nonce,
 * and each response gets the same headers with its own nonce in the CSP (helmet would rebuild the
 * same policy string for every request).
 * @param https whether the response goes over https (`req.secure`): HSTS and upgrade-insecure-requests
 * @throws Error when helmet sets no CSP with the nonce
 */
export function securityHeaders(https: boolean): SecurityHeaders {
  const lines: Array<[string, string]> = [];
  const fake = {
    setHeader: (name: string, value: string) => lines.push([name, String(value)]),
    removeHeader: () => {},
    getHeader: () => undefined,
  };
  helmetFor(https)({ secure: https, headers: {} } as never, fake as never, () => {});
  const csp = lines.findIndex(([name]) => name.toLowerCase() === 'content-security-policy');
  const [before, after] = csp === -1 ? [] : lines[csp]![1].split(NONCE_SLOT);
  if (before === undefined || after === undefined) throw new Error('helmet set no CSP with the nonce');
  lines[csp]![1] = '';
  return { lines, csp, around: [before, after] };
}

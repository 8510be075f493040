/**
 * Filter step 2: security headers through helmet (docs/filter.md §4), with a fresh
 * CSP nonce per response and the changes to helmet's defaults that docs/filter.md §4 gives; and
 * `X-Content-Type-Options: nosniff`, which every response of the app gets, filtered or not.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
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
  return function noSniff(_req, res, next) {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  };
}

/** Random bytes for nonces, drawn 4 KiB at a time: one call into the CSPRNG per 256 responses. */
let pool = Buffer.alloc(0);
let offset = 0;

/** A fresh nonce: 128 random bits, base64, never handed out twice. */
function nonce(): string {
  if (offset + 16 > pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  offset += 16;
  return pool.toString('base64', offset - 16, offset);
}

/**
 * The headers helmet sets, computed once: helmet is asked with a placeholder nonce, and each
 * response gets the same headers with its own nonce in the CSP (helmet would rebuild the
 * same policy string for every request).
 */
function headerTemplate(https: boolean): (res: ServerResponse, nonce: string) => void {
  const headers: Array<[string, string]> = [];
  const fake = {
    setHeader: (name: string, value: string) => headers.push([name, String(value)]),
    removeHeader: () => {},
    getHeader: () => undefined,
  };
  helmetFor(https)({ secure: https, headers: {} } as never, fake as never, () => {});
  const csp = headers.find(([name]) => name.toLowerCase() === 'content-security-policy');
  const [before, after] = csp ? csp[1].split(NONCE_SLOT) : ['', ''];
  if (!csp || after === undefined) throw new Error('helmet set no CSP with the nonce');
  const fixed = headers.filter((h) => h !== csp);
  return (res, nonce) => {
    for (const [name, value] of fixed) res.setHeader(name, value);
    res.setHeader(csp[0], before + nonce + after);
  };
}

/**
 * Sets `res.locals.nonce` (128 random bits, base64) and the helmet headers.
 * @returns a middleware choosing the https or plain-http policy by `req.secure`
 */
export function securityHeaders(): RequestHandler {
  const overHttps = headerTemplate(true);
  const overHttp = headerTemplate(false);
  return function securityHeaders(req, res, next) {
    const fresh = nonce();
    res.locals.nonce = fresh;
    (req.secure ? overHttps : overHttp)(res, fresh);
    next();
  };
}

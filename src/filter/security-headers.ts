/**
 * Filter step 2: security headers through helmet (product.md §2), with a fresh
 * CSP nonce per response and the two changes to helmet's defaults that §2 and
 * the toolchain notes require.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

type Res = ServerResponse & { locals: Record<string, unknown> };

function helmetFor(https: boolean): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // No 'unsafe-inline': every inline and module script carries the nonce.
        scriptSrc: ["'self'", (_req: IncomingMessage, res: ServerResponse) => `'nonce-${String((res as Res).locals.nonce)}'`],
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
  }) as unknown as RequestHandler;
}

/**
 * Sets `res.locals.nonce` (128 random bits, base64) and the helmet headers.
 * @returns a middleware choosing the https or plain-http policy by `req.secure`
 */
export function securityHeaders(): RequestHandler {
  const overHttps = helmetFor(true);
  const overHttp = helmetFor(false);
  return function securityHeaders(req, res, next) {
    res.locals.nonce = randomBytes(16).toString('base64');
    (req.secure ? overHttps : overHttp)(req, res, next);
  };
}

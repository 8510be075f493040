/**
 * Who gets the whole document at once instead of a streamed shell (docs/streaming.md §1):
 * bots (isbot), and text browsers, which run no script and would show a Suspense boundary's
 * fallback and its streamed content one after the other.
 */
import type { Request, Response } from 'express';
import { isbot } from 'isbot';
import type { Mode } from './types.js';

/** Lynx, w3m, Links and ELinks, by the names their user agents start with. */
const TEXT_BROWSER = /^(lynx|w3m|links|elinks)\b/i;

/**
 * Whether a client should get the whole document at once.
 * @param userAgent the `User-Agent` header ('' when absent)
 */
export function wantsWholeDocument(userAgent: string): boolean {
  return TEXT_BROWSER.test(userAgent) || isbot(userAgent);
}

/**
 * How a request is answered: page data when it carries the marker, the whole document for bots
 * and text browsers, else streamed HTML (docs/streaming.md §1, docs/navigation.md §1).
 */
export function modeOf(req: Request, res: Response): Mode {
  return res.locals.pageData ? 'data' : wantsWholeDocument(req.get('user-agent') ?? '') ? 'whole' : 'stream';
}

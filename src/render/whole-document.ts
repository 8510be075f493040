/**
 * Who gets the whole document at once instead of a streamed shell (docs/streaming.md §1):
 * bots (isbot), and text browsers, which run no script and would show a Suspense boundary's
 * fallback and its streamed content one after the other.
 */
import { isbot } from 'isbot';

/** Lynx, w3m, Links and ELinks, by the names their user agents start with. */
const TEXT_BROWSER = /^(lynx|w3m|links|elinks)\b/i;

/**
 * Whether a client should get the whole document at once.
 * @param userAgent the `User-Agent` header ('' when absent)
 */
export function wantsWholeDocument(userAgent: string): boolean {
  return TEXT_BROWSER.test(userAgent) || isbot(userAgent);
}

/**
 * The custom rule `isWebsite` (docs/forms.md §1–§2): an absolute `http` or `https` URL, as
 * validator.js's `isURL` judges it with `{ protocols: ['http', 'https'], require_protocol: true }`
 * (class-validator's `IsUrl` with those options). Written out for those options: `isURL` whole
 * handles a dozen options no form uses, and validator.js ships it compiled for old browsers, all
 * of it in the registration page's JavaScript (docs/performance.md §1). Step for step what `isURL`
 * does with them; test/validator-ports.test.ts holds the two equal. Its server decorator is
 * `IsWebsite()` (src/forms/custom-rules.ts).
 */
import { MESSAGES } from '../../../protocol/messages.js';
import { isFQDN, isIP } from '../validator.js';
import type { RuleDefinition } from './rule.js';

export const name = 'isWebsite';

function isWebsite(input: string): boolean {
  if (!input || /[\s<>]/.test(input) || input.indexOf('mailto:') === 0 || input.length > 2084) return false;
  const url = input.split('#')[0]!.split('?')[0]!;
  const scheme = /^([a-z][a-z0-9+\-.]*):/i.exec(url);
  if (!scheme) return false;
  let rest = url.slice(scheme[0].length);
  if (rest.slice(0, 2) === '//') rest = rest.slice(2);
  else {
    // Without `//`, what follows the colon may be credentials (`user:password@host`) or a port,
    // and the colon then no protocol's: one is required.
    const beforeSlash = rest.split('/')[0]!;
    const at = beforeSlash.indexOf('@');
    const auth = beforeSlash.slice(0, at);
    if (at === -1 ? /^[0-9]/.test(rest) : /^[a-zA-Z0-9\-_.%:]*$/.test(auth) && !/%[0-9a-fA-F]{2}/.test(auth)) return false;
  }
  if (!/^https?$/i.test(scheme[1]!) || rest === '') return false;
  const parts = rest.split('/')[0]!.split('@');
  if (parts.length > 1) {
    if (parts[0] === '') return false;
    const auth = parts.shift()!.split(':');
    if (auth.length > 2 || (auth[0] === '' && auth[1] === '')) return false;
  }
  const hostname = parts.join('@');
  // An IPv6 address in brackets, or a host: either with an optional port.
  const wrapped = /^\[([^\]]+)\](?::([0-9]+))?$/.exec(hostname);
  const split = hostname.split(':');
  const host = wrapped ? '' : split.shift()!;
  const port = wrapped ? wrapped[2] : split.join(':');
  if (port && (!/^[0-9]+$/.test(port) || +port <= 0 || +port > 65535)) return false;
  return isIP(host) || isFQDN(host) || (wrapped !== null && isIP(wrapped[1]!, 6));
}

export const check: RuleDefinition['check'] = (v) => typeof v === 'string' && isWebsite(v);

export const message: RuleDefinition['message'] = () => MESSAGES.url;

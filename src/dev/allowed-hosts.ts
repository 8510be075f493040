/**
 * The names the development server answers (docs/development.md §6): `localhost` and the names
 * under it, loopback addresses, and the names the developer adds in `DEV_ALLOWED_HOSTS`. Any other
 * `Host` is refused with 403, so a page on a DNS name rebound to 127.0.0.1 reads nothing of it:
 * no page, no form, no reload channel with its build errors. Two `Host` lines, or one that is not
 * `host[:port]`, are a 400, as in production (docs/filter.md §9). The runner's front and the
 * development server behind it (a step of its pipeline, src/dev/steps.tsx) both check, with the
 * same names.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIPv6 } from 'node:net';
import { hostProblem } from '../host-header.js';
import { endPlain } from '../plain-text.js';

/** The variable of the names a developer adds. */
export const ALLOWED_HOSTS_VARIABLE = 'DEV_ALLOWED_HOSTS';

/** Characters no host name holds: a scheme, a port, a path, credentials, a pattern. */
const NOT_A_NAME = /[/:@?#\\*\s[\]]/;

/**
 * A host as a browser writes it in `Host` for its URL (WHATWG URL: lower case, IPv4 in dotted
 * decimal, IPv6 compressed in brackets, international names in punycode).
 * @param host a host, with or without its port, e.g. `LocalHost:3000`, `[0::1]`
 * @returns the name, e.g. `localhost`, `[::1]`; undefined for what no URL can hold
 */
function hostname(host: string): string | undefined {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * Reads `DEV_ALLOWED_HOSTS`: names or IP addresses, comma-separated; a leading dot adds a name and
 * every name under it (`.eiland.test`: `eiland.test`, `a.eiland.test`).
 * @param value the variable's value (undefined or empty: none)
 * @returns the names as {@link hostAllowed} compares them, e.g. `['eiland.test', '.tunnel.example', '[fd00::1]']`
 * @throws RangeError quoting the first entry that is not a host name (a port, a scheme, a path, `*`)
 * @example parseAllowedHosts('eiland.test, .tunnel.example') // ['eiland.test', '.tunnel.example']
 */
export function parseAllowedHosts(value: string | undefined): string[] {
  const names: string[] = [];
  for (const entry of (value ?? '').split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const bare = entry.startsWith('[') && entry.endsWith(']') ? entry.slice(1, -1) : entry;
    if (isIPv6(bare)) {
      names.push(hostname(`[${bare}]`)!);
      continue;
    }
    const suffix = entry.startsWith('.');
    const name = NOT_A_NAME.test(entry) ? undefined : hostname(suffix ? entry.slice(1) : entry);
    if (name === undefined || name === '') {
      throw new RangeError(`${ALLOWED_HOSTS_VARIABLE}: "${entry}" is not a host name or an IP address (write names comma-separated, without scheme or port, e.g. eiland.test,.tunnel.example)`);
    }
    names.push(suffix ? `.${name}` : name);
  }
  return names;
}

/**
 * Whether the development server answers a `Host`: `localhost` or a name under it (RFC 6761
 * §6.3: they are the loopback), an address of 127.0.0.0/8 or `[::1]`, or one of `names`. A DNS
 * name of someone else's never is: a rebound name reaches nothing.
 * @param host the `Host` header (with its port, if any); undefined: none (HTTP/1.0)
 * @param names from {@link parseAllowedHosts}
 * @example hostAllowed('127.0.0.1:3000', []) // true
 * @example hostAllowed('evil.example:3000', []) // false
 */
export function hostAllowed(host: string | undefined, names: readonly string[]): boolean {
  const name = host === undefined ? undefined : hostname(host);
  if (name === undefined || name === '') return false;
  if (name === 'localhost' || name.endsWith('.localhost') || name === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(name)) return true;
  return names.some((allowed) => (allowed.startsWith('.') ? name === allowed.slice(1) || name.endsWith(allowed) : name === allowed));
}

/** Why a request is refused, as the client reads it. */
interface HostRefusal {
  status: 400 | 403;
  text: string;
}

/**
 * Why the development server refuses a request, if it does.
 * @param req the request (its `rawHeaders` keep every `Host` line)
 * @param names from {@link parseAllowedHosts}
 * @returns 400 for two `Host` lines or an invalid one (the texts of docs/filter.md §9), 403 for a
 *   name it does not answer; undefined for one it does
 */
export function hostRefusal(req: IncomingMessage, names: readonly string[]): HostRefusal | undefined {
  const problem = hostProblem(req);
  if (problem === 'duplicate') return { status: 400, text: 'Bad Request: more than one Host header' };
  if (problem === 'invalid') return { status: 400, text: 'Bad Request: invalid Host header' };
  if (hostAllowed(req.headers.host, names)) return undefined;
  // Vite's words, with this project's variable: the developer sees what to do.
  const host = req.headers.host === undefined ? 'none' : `"${req.headers.host}"`;
  return { status: 403, text: `Forbidden: the development server does not answer for this host (${host}). To allow it, add its name to ${ALLOWED_HOSTS_VARIABLE} (comma-separated).` };
}

/**
 * Answers a refused request in plain text, never cached, and closes its connection: a connection
 * that named another site, or two, is not one to go on with.
 * @param res the response, its head not sent
 * @param refusal from {@link hostRefusal}
 */
export function refuseHost(res: ServerResponse, { status, text }: HostRefusal): void {
  res.setHeader('Connection', 'close');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  endPlain(res, status, `${text}\n`);
}

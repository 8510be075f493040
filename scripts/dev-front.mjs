// The development runner's front (docs/development.md §1, §6): it listens on PORT, answers only
// its own names (localhost, the loopback addresses, HOST and DEV_ALLOWED_HOSTS), serves the reload
// channel and forwards every other request to the server the runner points it at (src/dev/front.ts).
/** @import { BuildFeed } from '../src/dev/feed.js' */
/** @import { Front } from '../src/dev/front.js' */
import { ALLOWED_HOSTS_VARIABLE, parseAllowedHosts } from '../src/dev/allowed-hosts.js';
import { startFront } from '../src/dev/front.js';

/** How many refused hosts are said: each once (a page retrying its reload channel would fill the
 * terminal), the first this many of them. */
const REFUSED_SAID = 20;

/**
 * The names answered besides localhost and the loopback addresses: DEV_ALLOWED_HOSTS, and HOST
 * when it names one interface (the URL `ready at` shows); every interface is no name.
 * @param {string} host
 * @returns {string[]}
 * @throws {RangeError} quoting the first entry of DEV_ALLOWED_HOSTS that is not a host name
 */
function allowedHostsOf(host) {
  const allowed = parseAllowedHosts(process.env[ALLOWED_HOSTS_VARIABLE]);
  if (!['0.0.0.0', '::'].includes(host)) {
    try {
      allowed.push(...parseAllowedHosts(host));
    } catch {
      // Not a name: the front cannot listen on it either, and says so.
    }
  }
  return allowed;
}

/**
 * Starts the front on HOST and PORT; a bad DEV_ALLOWED_HOSTS or an address it cannot listen on
 * ends the runner with code 1, saying why.
 * @param {BuildFeed} feed what open pages are shown
 * @param {(line: string) => void} say the runner's voice in the terminal
 * @returns {Promise<{ front: Front, allowedHosts: string[] }>}
 */
export async function openFront(feed, say) {
  const host = process.env.HOST ?? '127.0.0.1';
  /** @type {string[]} */
  let allowedHosts;
  try {
    allowedHosts = allowedHostsOf(host);
  } catch (error) {
    say(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
  /** @type {Set<string | undefined>} */
  const refused = new Set();
  try {
    const front = await startFront({
      host,
      port: Number(process.env.PORT ?? '3000'),
      feed,
      allowedHosts,
      onRefused(refusedHost) {
        if (refused.has(refusedHost) || refused.size >= REFUSED_SAID) return;
        refused.add(refusedHost);
        say(`refused a request for host ${refusedHost === undefined ? '(none)' : JSON.stringify(refusedHost)} (403); to answer it, add its name to ${ALLOWED_HOSTS_VARIABLE}`);
      },
    });
    return { front, allowedHosts };
  } catch (error) {
    say(`cannot listen: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

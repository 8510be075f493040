// What the benchmark measures of one running server (docs/performance.md §2): load at 32
// connections (autocannon), a form post from fresh addresses, time to first byte against time
// to the whole document, and HTML bytes (the JavaScript a page loads: bench/page-scripts.mjs).
// Loopback only.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { fetchRaw } from './page-scripts.mjs';

export const CONNECTIONS = 32;

/**
 * Loads a GET target with autocannon: warm-up 2 s, then `seconds`.
 * @returns {Promise<{ rps: number, p50: number, p99: number, errors: number }>} errors: failed
 *   requests plus answers other than 2xx
 */
export async function load(port, path, seconds, headers = {}) {
  const url = `http://127.0.0.1:${port}${path}`;
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers });
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts + r.non2xx };
}

/**
 * A valid registration form post for a server: its rendered form's token and cookies (a GET of
 * `/aanmelden`, fetched now), as every peer checks them.
 * @param {number} port
 * @param {string} email the address it registers: give each post its own, so every one is mailed
 *   (one address gets 3 e-mails a day: docs/operations.md §12)
 * @returns {Promise<{ headers: Record<string, string>, body: string }>}
 */
export async function formPost(port, email) {
  const fields = {
    naam: 'Anna de Vries',
    email,
    website: 'https://anna.voorbeeld.nl',
    gebruikersnaam: 'anna_1',
    landcode: 'NL',
    interesses: ['sport', 'natuur'],
    personen: '2',
    akkoord: 'ja',
  };
  const page = await fetchRaw(port, '/aanmelden');
  const html = page.body.toString('utf8');
  const hidden = (name) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
  const params = new URLSearchParams();
  for (const name of ['_csrf', '_submission']) if (hidden(name)) params.append(name, hidden(name));
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) params.append(name, v);
  const cookie = [page.headers['set-cookie'] ?? []].flat().map((c) => c.split(';')[0]).join('; ');
  const origin = `http://127.0.0.1:${port}`;
  return {
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin, 'Sec-Fetch-Site': 'same-origin', ...(cookie ? { Cookie: cookie } : {}) },
    body: params.toString(),
  };
}

let nextAddress = 0;
/** A loopback address for one post: the per-address form limit never applies (127.1.0.0/16). */
function freshAddress() {
  nextAddress += 1;
  return `127.1.${(nextAddress >> 8) & 255}.${(nextAddress & 255) || 1}`;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)];
};
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/**
 * The CPU time processes have used, every thread of each, in ms (`/proc/<pid>/stat`: user and
 * system time, in clock ticks of 10 ms).
 * @param {number | number[]} pid
 */
export function cpuMs(pid) {
  return [pid].flat().reduce((sum, one) => {
    const fields = readFileSync(`/proc/${one}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    // After the command's closing parenthesis, utime and stime are the 12th and 13th fields.
    return sum + (Number(fields[11]) + Number(fields[12])) * 10;
  }, 0);
}

/**
 * Waits until processes are quiet: less than 5 % of one core over half a second, all of them
 * together (their e-mails sent), at most `boundMs`.
 * @param {number | number[]} pids
 */
export async function quiet(pids, boundMs = 30_000) {
  const used = () => cpuMs(pids);
  const until = performance.now() + boundMs;
  let before = used();
  while (performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = used();
    if (now - before < 25) return;
    before = now;
  }
}

/**
 * Valid form posts at 32 concurrent connections for `seconds`, each from a fresh loopback
 * address with a fresh form (token, cookies, submission key) fetched beforehand.
 * @param form `(port) => Promise<{ headers, body }>`: renders a form and builds its valid post
 * @param pid the serving process (or processes: a server and its e-mail's): their CPU time from the measured run's start until they are quiet
 *   again (its e-mails sent) is divided by the posts answered
 * @returns {Promise<{ rps: number, p50: number, p99: number, errors: number, cpuMsPerPost?: number }>}
 *   errors: answers other than 303
 */
export async function loadPosts(port, seconds, form, expectedRps = 2000, pid = undefined) {
  // Enough forms for the run: fetched before, so only posts are timed.
  const needed = Math.ceil(expectedRps * (seconds + 2));
  const forms = [];
  while (forms.length < needed) forms.push(...(await Promise.all(Array.from({ length: CONNECTIONS }, () => form(port)))));
  const latencies = [];
  let errors = 0;
  let done = 0;
  const post = (f) => fetchRaw(port, '/aanmelden', { method: 'POST', headers: f.headers, body: f.body, localAddress: freshAddress() });
  // Warm-up 2 s, then the measured run.
  let cpuBefore;
  for (const [duration, measured] of [[2, false], [seconds, true]]) {
    if (measured && pid !== undefined) {
      await quiet(pid);
      cpuBefore = cpuMs(pid);
    }
    const until = performance.now() + duration * 1000;
    const worker = async () => {
      while (performance.now() < until && forms.length > 0) {
        const started = performance.now();
        const res = await post(forms.pop()).catch(() => ({ status: 0 }));
        if (!measured) continue;
        latencies.push(performance.now() - started);
        done += 1;
        if (res.status !== 303) errors += 1;
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  }
  if (forms.length === 0) throw new Error('the benchmark ran out of prepared forms: raise expectedRps');
  let cpuMsPerPost;
  if (pid !== undefined && cpuBefore !== undefined) {
    await quiet(pid);
    cpuMsPerPost = (cpuMs(pid) - cpuBefore) / done;
  }
  return { rps: done / seconds, p50: median(latencies), p99: percentile(latencies, 99), errors, ...(cpuMsPerPost !== undefined && { cpuMsPerPost }) };
}

/**
 * Fills the render cache as a day's traffic does, before the load (docs/performance.md §2): `times`
 * registrations, each followed by every page in each way it is sent (streamed, whole to a bot,
 * page data), so every new count on `/` is rendered and kept. Sequential.
 * @param {number} port
 * @param {string[]} paths the pages
 * @param {(port: number) => Promise<{ headers: Record<string, string>, body: string }>} form renders a form and builds its valid post
 * @param {number} [times]
 * @throws Error when a post is not answered 303 or a page not 200
 */
export async function fillRenderCache(port, paths, form, times = 800) {
  const ways = [{}, { 'User-Agent': 'Googlebot/2.1' }, { 'X-Eiland-Data': '1' }];
  for (let i = 0; i < times; i++) {
    const { headers, body } = await form(port);
    const posted = await fetchRaw(port, '/aanmelden', { method: 'POST', headers, body, localAddress: freshAddress() });
    if (posted.status !== 303) throw new Error(`filling the render cache: a registration was answered ${posted.status}`);
    for (const path of paths) {
      for (const way of ways) {
        const page = await fetchRaw(port, path, { headers: way });
        if (page.status !== 200) throw new Error(`filling the render cache: ${path} was answered ${page.status}`);
      }
    }
  }
}

/**
 * Time to first byte against time to the whole document, sequentially, medians.
 * @returns {Promise<{ ttfbMs: number, documentMs: number, htmlBytes: number }>}
 */
export async function timeDocument(port, path, times = 30) {
  const runs = [];
  for (let i = 0; i < times; i++) runs.push(await fetchRaw(port, path));
  return { ttfbMs: median(runs.map((r) => r.ttfbMs)), documentMs: median(runs.map((r) => r.totalMs)), htmlBytes: runs.at(-1).body.length };
}

// What the benchmark measures of one running server (docs/performance.md §2): load at 32
// connections (autocannon), a form post from fresh addresses, time to first byte against time
// to the whole document, HTML bytes, and the JavaScript a page makes a browser load.
// Loopback only.
import { request } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import autocannon from 'autocannon';

export const CONNECTIONS = 32;

/**
 * One GET (or POST) on loopback, timed.
 * @returns {Promise<{ status: number, headers: object, body: Buffer, ttfbMs: number, totalMs: number }>}
 */
export function fetchRaw(port, path, { method = 'GET', headers = {}, body, localAddress } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request({ host: '127.0.0.1', port, path, method, headers, agent: false, localAddress }, (res) => {
      let ttfbMs;
      const chunks = [];
      res.on('data', (c) => {
        ttfbMs ??= performance.now() - started;
        chunks.push(c);
      });
      res.on('end', () => {
        const totalMs = performance.now() - started;
        resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks), ttfbMs: ttfbMs ?? totalMs, totalMs });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

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
 * Valid form posts at 32 concurrent connections for `seconds`, each from a fresh loopback
 * address with a fresh form (token, cookies, submission key) fetched beforehand.
 * @param form `(port) => Promise<{ headers, body }>`: renders a form and builds its valid post
 * @returns {Promise<{ rps: number, p50: number, p99: number, errors: number }>} errors: answers
 *   other than 303
 */
export async function loadPosts(port, seconds, form, expectedRps = 2000) {
  // Enough forms for the run: fetched before, so only posts are timed.
  const needed = Math.ceil(expectedRps * (seconds + 2));
  const forms = [];
  while (forms.length < needed) forms.push(...(await Promise.all(Array.from({ length: CONNECTIONS }, () => form(port)))));
  const latencies = [];
  let errors = 0;
  let done = 0;
  const post = (f) => fetchRaw(port, '/aanmelden', { method: 'POST', headers: f.headers, body: f.body, localAddress: freshAddress() });
  // Warm-up 2 s, then the measured run.
  for (const [duration, measured] of [[2, false], [seconds, true]]) {
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
  return { rps: done / seconds, p50: median(latencies), p99: percentile(latencies, 99), errors };
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

/** Module specifiers a script imports statically or dynamically with a literal. */
function importsOf(code) {
  const found = new Set();
  for (const m of code.matchAll(/(?:\bimport|\bexport)\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+\.m?js)["']/g)) found.add(m[1]);
  return found;
}

/**
 * The JavaScript a page makes a browser load: its `<script src>`, `<link rel="modulepreload">`
 * (and `<link rel="preload" as="script">`), the modules Eiland's router loads after the first
 * paint (`<meta name="eiland-islands">`), an Astro island's component and renderer modules, and
 * every module those import, transitively.
 * Sizes are of the bytes served, compressed here with gzip -9 and brotli 11 alike for every
 * server.
 * @returns {Promise<{ files: number, raw: number, gzip: number, brotli: number, urls: string[] }>}
 */
export async function pageScripts(port, path) {
  const html = (await fetchRaw(port, path)).body.toString('utf8');
  const queue = [];
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) queue.push(m[1]);
  // Eiland's router loads these after the first paint (docs/islands.md §3).
  for (const m of html.matchAll(/<meta name="eiland-islands" content="([^"]+)"/g)) queue.push(...m[1].split(' '));
  // Astro's islands name their component's and their renderer's modules.
  for (const m of html.matchAll(/<astro-island\b[^>]*>/g)) for (const url of m[0].matchAll(/\b(?:component|renderer)-url="([^"]+)"/g)) queue.push(url[1]);
  for (const m of html.matchAll(/<link\b[^>]*\brel="(?:modulepreload|preload)"[^>]*>/g)) {
    const href = /\bhref="([^"]+)"/.exec(m[0])?.[1];
    if (href && (/rel="modulepreload"/.test(m[0]) || /as="script"/.test(m[0]))) queue.push(href);
  }
  const seen = new Map();
  while (queue.length > 0) {
    const url = new URL(queue.shift().replace(/&amp;/g, '&'), `http://127.0.0.1:${port}${path}`);
    if (url.host !== `127.0.0.1:${port}` || seen.has(url.pathname + url.search)) continue;
    const res = await fetchRaw(port, url.pathname + url.search);
    if (res.status !== 200) throw new Error(`${url.pathname} answered ${res.status}`);
    seen.set(url.pathname + url.search, res.body);
    for (const spec of importsOf(res.body.toString('utf8'))) queue.push(new URL(spec, url).href);
  }
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  for (const body of seen.values()) {
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
    brotli += brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return { files: seen.size, raw, gzip, brotli, urls: [...seen.keys()] };
}

// What the benchmark and the build's size test fetch (docs/performance.md §1–§2): one request on
// loopback, timed, and the JavaScript a page makes a browser load. Loopback only.
/** @import { IncomingHttpHeaders } from 'node:http' */
/** @typedef {{ raw: number, gzip: number, brotli: number }} Size */
import { request } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * One GET (or POST) on loopback, timed.
 * @param {number} port
 * @param {string} path the request target
 * @param {{ method?: string, headers?: Record<string, string>, body?: string | Buffer, localAddress?: string }} [options]
 * @returns {Promise<{ status: number, headers: IncomingHttpHeaders, body: Buffer, ttfbMs: number, totalMs: number }>}
 */
export function fetchRaw(port, path, { method = 'GET', headers = {}, body, localAddress } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request({ host: '127.0.0.1', port, path, method, headers, agent: false, localAddress }, (res) => {
      /** @type {number | undefined} */
      let ttfbMs;
      /** @type {Buffer[]} */
      const chunks = [];
      res.on('data', (/** @type {Buffer} */ c) => {
        ttfbMs ??= performance.now() - started;
        chunks.push(c);
      });
      res.on('end', () => {
        const totalMs = performance.now() - started;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), ttfbMs: ttfbMs ?? totalMs, totalMs });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Module specifiers a script imports statically or dynamically with a literal.
 * @param {string} code
 * @returns {Set<string>}
 */
function importsOf(code) {
  /** @type {Set<string>} */
  const found = new Set();
  for (const m of code.matchAll(/(?:\bimport|\bexport)\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+\.m?js)["']/g)) if (m[1]) found.add(m[1]);
  return found;
}

/**
 * The JavaScript a page makes a browser load: its `<script src>`, `<link rel="modulepreload">`
 * (and `<link rel="preload" as="script">`), the modules Eiland's router loads after the first
 * paint (`<meta name="eiland-islands">`), an Astro island's component and renderer modules, and
 * every module those import, transitively.
 * Sizes are of the bytes served, compressed here with gzip -9 and brotli 11 alike for every
 * server. On an Eiland page, React's module is named apart (the `react` of the build manifest
 * the page names: docs/performance.md §1).
 * @param {number} port
 * @param {string} path the page
 * @returns {Promise<{ files: number, raw: number, gzip: number, brotli: number, urls: string[], sizes: Record<string, Size>, react?: Size & { url: string } }>}
 *   the sums, each script's sizes by its URL's path (with its query), and React's module when
 *   the page loads Eiland's
 * @throws Error when a script answers other than 200
 */
export async function pageScripts(port, path) {
  const html = (await fetchRaw(port, path)).body.toString('utf8');
  /** @type {string[]} */
  const queue = [];
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) if (m[1]) queue.push(m[1]);
  // Eiland's router loads these after the first paint (docs/islands.md §3).
  for (const m of html.matchAll(/<meta name="eiland-islands" content="([^"]+)"/g)) queue.push(...(m[1] ?? '').split(' '));
  // Astro's islands name their component's and their renderer's modules.
  for (const m of html.matchAll(/<astro-island\b[^>]*>/g)) for (const url of m[0].matchAll(/\b(?:component|renderer)-url="([^"]+)"/g)) if (url[1]) queue.push(url[1]);
  for (const m of html.matchAll(/<link\b[^>]*\brel="(?:modulepreload|preload)"[^>]*>/g)) {
    const href = /\bhref="([^"]+)"/.exec(m[0])?.[1];
    if (href && (/rel="modulepreload"/.test(m[0]) || /as="script"/.test(m[0]))) queue.push(href);
  }
  /** @type {Map<string, Buffer>} */
  const seen = new Map();
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const url = new URL(next.replace(/&amp;/g, '&'), `http://127.0.0.1:${port}${path}`);
    if (url.host !== `127.0.0.1:${port}` || seen.has(url.pathname + url.search)) continue;
    const res = await fetchRaw(port, url.pathname + url.search);
    if (res.status !== 200) throw new Error(`${url.pathname} answered ${res.status}`);
    seen.set(url.pathname + url.search, res.body);
    for (const spec of importsOf(res.body.toString('utf8'))) queue.push(new URL(spec, url).href);
  }
  const sizes = Object.fromEntries(
    [...seen].map(([url, body]) => [
      url,
      { raw: body.length, gzip: gzipSync(body, { level: 9 }).length, brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length },
    ]),
  );
  /** @param {'raw' | 'gzip' | 'brotli'} key */
  const sum = (key) => Object.values(sizes).reduce((total, size) => total + size[key], 0);
  const manifest = /<meta name="eiland-manifest" content="([^"]+)"/.exec(html)?.[1];
  /** @type {string | undefined} */
  const react = manifest ? JSON.parse((await fetchRaw(port, manifest)).body.toString('utf8')).react : undefined;
  const reactSize = react === undefined ? undefined : sizes[react];
  return { files: seen.size, raw: sum('raw'), gzip: sum('gzip'), brotli: sum('brotli'), urls: [...seen.keys()], sizes, ...(react && reactSize ? { react: { url: react, ...reactSize } } : {}) };
}

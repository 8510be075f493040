// Size budget (product.md §13): JavaScript each page loads, raw, gzip and brotli,
// from the build manifest and the precompressed twins build.mjs writes.
import { readFile, stat } from 'node:fs/promises';

const manifest = JSON.parse(await readFile('dist/manifest.json', 'utf8'));
const sizeOf = async (url, suffix = '') => (await stat(`dist${url}${suffix}`)).size;
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

console.log(`build ${manifest.buildId}: JavaScript per page`);
console.log(['route', 'files', 'raw', 'gzip', 'brotli'].join('\t'));
for (const [route, { assets }] of Object.entries(manifest.routes)) {
  const scripts = assets.filter((a) => a.endsWith('.js'));
  const [raw, gz, br] = await Promise.all(['', '.gz', '.br'].map(async (s) => (await Promise.all(scripts.map((f) => sizeOf(f, s)))).reduce((a, b) => a + b, 0)));
  console.log([route, scripts.length, kib(raw), kib(gz), kib(br)].join('\t'));
}
for (const [name, { file }] of Object.entries(manifest.islands)) {
  console.log(`island ${name}: ${kib(await sizeOf(file, '.gz'))} gzip, ${kib(await sizeOf(file, '.br'))} brotli (own chunk)`);
}

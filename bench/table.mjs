// The latest figures of docs/performance.md §3: one Markdown table rendered from a run's results
// (bench/results/latest.json), each server's figures, Eiland against Next, and every budget as
// bench/judge.mjs judges it. `npm run bench` writes it into the document after each run, between
// the markers; test/docs.test.ts holds the document to what this renders from the committed
// results, so the two cannot drift.
//
//   node bench/table.mjs           print the table rendered from bench/results/latest.json
//   node bench/table.mjs --write   and write it into docs/performance.md
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASELINE_COMMIT, KIB } from './budgets.mjs';
import { BENCH_PAGES, judge, MAILBOXES, ratio } from './judge.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Where the table stands in docs/performance.md: between these two lines. */
export const MARKERS = { start: '<!-- bench:latest -->', end: '<!-- /bench:latest -->' };
/** The files the table is made from and written to. */
export const FILES = { results: 'bench/results/latest.json', lock: 'package-lock.json', doc: 'docs/performance.md' };
/** The servers' names in the table's head (bench/run.mjs --servers). */
const NAMES = /** @type {Record<string, string>} */ ({ eiland: 'Eiland', 'eiland-nocache': 'Eiland, cache off', next: 'Next.js', astro: 'Astro', express: 'plain Express', http: 'Node `http`', tsx: 'Eiland under tsx', baseline: `Eiland at ${BASELINE_COMMIT.slice(0, 7)}` });

/**
 * One row: its key (a verdict's `row`, bench/judge.mjs), its label, and its figure for a server;
 * `apart`: a figure with no ratio to Next (a count of errors).
 * @typedef {{ key: string, label: string, digits: number, get: (server: Record<string, any>, kind: string) => number | undefined, apart?: boolean }} Row
 */

/**
 * The table's rows for a run's results.
 * @param {Record<string, any>} results
 * @param {ReadonlySet<string>} judged the rows the budgets are judged on: each is there
 * @returns {Row[]}
 */
function rowsOf(results, judged) {
  const servers = Object.values(results.servers ?? {});
  const pages = [...new Set(servers.flatMap((s) => Object.keys(s.pages)))];
  const page = (/** @type {string} */ p) => (p === 'data /' ? 'page data of `/`' : `\`${p}\``);
  /** @type {Row[]} */
  const rows = pages.flatMap((p) =>
    /** @type {const} */ ([
      ['rps', 'req/s', 'req/s'],
      ['p50', 'p50', 'p50 ms'],
      ['p99', 'p99', 'p99 ms'],
    ]).map(([field, key, label]) => ({ key: `${p} ${key}`, label: `${page(p)} ${label}`, digits: 0, get: (s) => s.pages[p]?.[field] })),
  );
  if (servers.some((s) => s.pages['POST /aanmelden']?.cpuMsPerPost !== undefined)) {
    rows.push({ key: 'POST /aanmelden cpu', label: '`POST /aanmelden` server CPU ms per post, its e-mail included (all threads, /proc)', digits: 2, get: (s) => s.pages['POST /aanmelden']?.cpuMsPerPost });
  }
  if (servers.length > 0) {
    rows.push(
      { key: 'errors', label: 'errors under load', digits: 0, apart: true, get: (s) => Object.values(s.pages).reduce((sum, p) => sum + p.errors, 0) },
      { key: 'idle RSS', label: 'idle RSS MB', digits: 1, get: (s) => s.idleRssMb },
      { key: 'peak RSS', label: 'peak RSS MB', digits: 1, get: (s) => s.peakRssMb },
    );
  }
  for (const p of BENCH_PAGES.filter((p) => servers.some((s) => s.html?.[p] !== undefined))) rows.push({ key: `${p} HTML`, label: `\`${p}\` HTML bytes`, digits: 0, get: (s) => s.html?.[p] });
  for (const p of BENCH_PAGES.filter((p) => servers.some((s) => s.js?.[p]))) {
    rows.push({ key: `${p} JS`, label: `\`${p}\` JavaScript KiB gzip`, digits: 2, get: (s) => kib(s.js?.[p]?.gzip) });
    if (servers.some((s) => s.js?.[p]?.react) || judged.has(`${p} JS own`)) {
      const react = (/** @type {Record<string, any>} */ s) => s.js?.[p]?.react;
      rows.push(
        { key: `${p} JS own`, label: `\`${p}\` JavaScript KiB gzip, all but React's module`, digits: 2, get: (s) => (react(s) ? kib(s.js[p].gzip - react(s).gzip) : undefined) },
        { key: `${p} JS React`, label: `\`${p}\` React's module KiB gzip`, digits: 2, get: (s) => kib(react(s)?.gzip) },
      );
    }
  }
  if (results.soak) rows.push({ key: 'soak', label: 'soak: RSS growth after minute 1, %', digits: 1, get: (_, kind) => (kind === 'eiland' ? results.soak.rssGrowthAfterMinute1 * 100 : undefined) });
  const o = results.outbox;
  if (o) {
    for (const [m, to] of MAILBOXES) {
      /** @type {(figure: (f: Record<string, any>) => number | undefined) => Row['get']} */
      const eiland = (figure) => (_, kind) => (kind === 'eiland' ? figure(o[m]) : undefined);
      rows.push(
        { key: `outbox ${m} rate`, label: `outbox to ${to}, a backlog of ${o.backlog}: e-mails/s`, digits: 1, get: eiland((f) => f.ratePerS) },
        { key: `outbox ${m} drain`, label: `outbox to ${to}: backlog drained, s`, digits: 2, get: eiland((f) => (f.drained ? f.drainS : undefined)) },
        { key: `outbox ${m} late`, label: `outbox to ${to}: a registration during it mailed after, s`, digits: 2, get: eiland((f) => (f.late.arrived ? f.late.delayS : undefined)) },
      );
    }
  }
  const b = results.beheer;
  const PAGES_OF_BEHEER = { first: 'first page', search: 'a search few rows match', filtered: 'a filtered page' };
  for (const engine of ['sqlite', 'postgres'].filter((e) => b?.[e])) {
    /** @type {(figure: (f: Record<string, any>) => number | undefined) => Row['get']} */
    const eiland = (figure) => (_, kind) => (kind === 'eiland' ? figure(b[engine]) : undefined);
    for (const [page, label] of Object.entries(PAGES_OF_BEHEER)) rows.push({ key: `beheer ${page} p99 (${engine})`, label: `beheer signed in, ${b.rows} rows on ${engine}: ${label}, p99 ms`, digits: 1, get: eiland((f) => f[page]?.p99) });
    rows.push({ key: `beheer first rps (${engine})`, label: `beheer signed in, ${b.rows} rows on ${engine}: first page, req/s`, digits: 0, get: eiland((f) => f.first?.rps) });
  }
  return rows;
}

/** @param {number | undefined} bytes */
const kib = (bytes) => (bytes === undefined ? undefined : bytes / KIB);
/** A cell's text: `|` would end it. */
const cell = (/** @type {string} */ text) => text.replaceAll('|', '\\|');

/**
 * The latest figures as Markdown: a line on the run, then one table (a row a figure, a column a
 * server, Eiland against Next, and the budgets that row is judged by).
 * @param {Record<string, any>} results bench/results/latest.json, parsed
 * @param {{ packages: Record<string, { version?: string }> }} lock package-lock.json, parsed
 * @returns {string}
 * @throws {Error} when a budget is judged on a figure the table has no row for
 * @example latestTable(JSON.parse(readFileSync('bench/results/latest.json', 'utf8')), lock)
 */
export function latestTable(results, lock) {
  const kinds = Object.keys(results.servers ?? {});
  if (results.outbox && !kinds.includes('eiland')) kinds.unshift('eiland');
  const server = (/** @type {string} */ kind) => results.servers?.[kind] ?? {};
  const verdicts = judge(results, lock);
  const rows = rowsOf(results, new Set(verdicts.map((v) => v.row)));
  const lost = verdicts.filter((v) => !rows.some((r) => r.key === v.row));
  if (lost.length > 0) throw new Error(`bench/table.mjs has no row for the budgets ${lost.map((v) => `"${v.name}" (row "${v.row}")`).join(', ')}`);
  const vsNext = kinds.includes('eiland') && kinds.includes('next');
  const head = ['figure', ...kinds.map((k) => NAMES[k] ?? k), ...(vsNext ? ['Eiland / Next'] : []), 'budget'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---|').join('')}`];
  for (const row of rows) {
    const figure = (/** @type {string} */ kind) => row.get(server(kind), kind);
    const values = kinds.map((k) => figure(k)?.toFixed(row.digits) ?? '—');
    // What was measured is the row's figure, but for a ratio to a peer and a budget missed.
    const budgets = verdicts.filter((v) => v.row === row.key).map((v) => (v.pass && !v.budget.includes('×') ? `${v.budget}, PASS` : `${v.budget}: ${v.detail}, ${v.pass ? 'PASS' : '**FAIL**'}`));
    const cells = [row.label, ...values, ...(vsNext ? [row.apart ? '' : ratio(figure('eiland'), figure('next'))] : []), budgets.join('; ')];
    lines.push(`| ${cells.map(cell).join(' | ')} |`);
  }
  const run = results.servers && Object.keys(results.servers).length > 0 ? `; ${results.connections} connections, ${results.seconds} s a figure, medians of ${results.rounds} alternating rounds` : '';
  return [`\`npm run bench\` of ${results.date.slice(0, 10)} (${results.machine}${run}), rendered from \`${FILES.results}\` by \`bench/table.mjs\`:`, '', ...lines].join('\n');
}

/**
 * What stands between the markers of a document, without the line breaks around it.
 * @param {string} doc
 * @throws {RangeError} when the document has not both markers, in order
 */
export function tableInDoc(doc) {
  const start = doc.indexOf(MARKERS.start);
  const end = doc.indexOf(MARKERS.end);
  if (start < 0 || end < start) throw new RangeError(`No ${MARKERS.start} … ${MARKERS.end} in the document`);
  return doc.slice(start + MARKERS.start.length, end).replace(/^\n+|\n+$/g, '');
}

/**
 * The document with a table between its markers instead of the one there.
 * @param {string} doc
 * @param {string} table
 * @throws {RangeError} when the document has not both markers, in order
 */
export function withTable(doc, table) {
  tableInDoc(doc);
  return `${doc.slice(0, doc.indexOf(MARKERS.start) + MARKERS.start.length)}\n${table}\n${doc.slice(doc.indexOf(MARKERS.end))}`;
}

/**
 * Reads a file of the repository as JSON.
 * @param {string} path from the repository's root
 * @returns {any}
 */
export const readJson = (path) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));

/**
 * Writes the table rendered from a run's results into docs/performance.md.
 * @param {Record<string, any>} results
 */
export function writeLatestTable(results) {
  const doc = join(ROOT, FILES.doc);
  writeFileSync(doc, withTable(readFileSync(doc, 'utf8'), latestTable(results, readJson(FILES.lock))));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = readJson(FILES.results);
  if (process.argv.includes('--write')) {
    writeLatestTable(results);
    console.log(`${FILES.doc}: the table of ${FILES.results} written`);
  } else console.log(latestTable(results, readJson(FILES.lock)));
}

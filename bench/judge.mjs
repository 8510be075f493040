// The budgets of docs/performance.md §1 judged on the figures of `npm run bench`: one verdict each,
// PASS or FAIL, with the row of the latest figures' table it stands in (bench/table.mjs). The run
// prints them and exits 1 on a FAIL; the table shows them beside the figures, so both judge alike.
import { BASELINE_COMMIT, BEHEER_BUDGET, HTML_BUDGET, JS_BUDGET, KIB, LOAD_BUDGET, REACT_MODULE, reactModuleChange } from './budgets.mjs';

/**
 * @typedef {object} Verdict
 * @property {string} name the budget in words, as the run prints it
 * @property {boolean} pass
 * @property {string} detail what was measured against it
 * @property {string} row the key of the table's row it stands in (bench/table.mjs)
 * @property {string} budget the budget in short, for the table: `≥ 3× Next`
 */

/** The pages of Eiland's whose HTML the benchmark fetches. */
export const BENCH_PAGES = ['/', '/over', '/aanmelden'];
/** The outbox's two mailboxes, as its results name them, and as the budgets say them. */
export const MAILBOXES = /** @type {const} */ ([
  ['files', 'files'],
  ['smtp', 'SMTP'],
]);

/**
 * A ratio as the run prints it.
 * @param {number | undefined} x
 * @param {number | undefined} y
 */
export const ratio = (x, y) => (x !== undefined && y ? `${(x / y).toFixed(2)}×` : '—');

/**
 * Every budget the results of a run can be judged against, in the order the run prints them.
 * @param {Record<string, any>} results bench/results/latest.json, parsed
 * @param {{ packages: Record<string, { version?: string }> }} lock package-lock.json, parsed (React's versions)
 * @returns {Verdict[]}
 */
export function judge(results, lock) {
  /** @type {Verdict[]} */
  const verdicts = [];
  /** @type {(row: string, budget: string, name: string, ok: unknown, detail: string) => void} */
  const check = (row, budget, name, ok, detail) => verdicts.push({ name, pass: Boolean(ok), detail, row, budget });
  const beheer = results.beheer;
  if (beheer?.error) check('beheer', 'measured', 'beheer lists measured', false, beheer.error);
  for (const engine of ['sqlite', 'postgres']) {
    for (const [page, figures] of Object.entries(beheer?.[engine] ?? {}).filter(([, f]) => typeof f.p99 === 'number')) {
      check(`beheer ${page} p99 (${engine})`, `≤ ${BEHEER_BUDGET.p99Ms} ms`, `beheer ${page}, ${BEHEER_BUDGET.rows} rows, ${engine}: p99 ≤ ${BEHEER_BUDGET.p99Ms} ms`, figures.p99 <= BEHEER_BUDGET.p99Ms, `${figures.p99} ms`);
    }
  }
  const { eiland: e, 'eiland-nocache': off, next: n, astro: a, express: x, baseline: b } = results.servers ?? {};
  const cpu = (/** @type {any} */ s) => s.pages['POST /aanmelden']?.cpuMsPerPost;
  if (e && b) {
    const share = `≤ ${LOAD_BUDGET.postCpuVsBaseline * 100} % of ${BASELINE_COMMIT.slice(0, 7)}`;
    check('POST /aanmelden cpu', share, `POST /aanmelden server CPU per post, its e-mail included, ${share}`, cpu(e) <= LOAD_BUDGET.postCpuVsBaseline * cpu(b), `${cpu(e).toFixed(2)} ms against ${cpu(b).toFixed(2)} ms: ${Math.round((100 * cpu(e)) / cpu(b))} %`);
  }

  if (e) {
    /** @type {(label: string, peer: string, y: any, times: Record<string, number>) => void} */
    const throughput = (label, peer, y, times) => {
      for (const [path, t] of Object.entries(times)) check(`${path} req/s`, `≥ ${t}× ${peer}`, `${label} ${path} ≥ ${t}×`, e.pages[path].rps >= t * y.pages[path].rps, ratio(e.pages[path].rps, y.pages[path].rps));
    };
    if (n) throughput('throughput with the cache vs Next', 'Next', n, LOAD_BUDGET.throughputVsNext);
    if (a) throughput('throughput with the cache vs Astro', 'Astro', a, LOAD_BUDGET.throughputVsAstro);
    if (x) throughput('throughput of a cache hit vs plain Express sending its bytes', 'plain Express', x, LOAD_BUDGET.throughputVsExpress);
    for (const [path, ms] of Object.entries(LOAD_BUDGET.p99Ms)) check(`${path} p99`, `≤ ${ms} ms`, `p99 ${path} ≤ ${ms} ms`, e.pages[path].p99 <= ms, `${e.pages[path].p99} ms`);
    check('peak RSS', `≤ ${LOAD_BUDGET.peakRssMb} MB`, `peak RSS ≤ ${LOAD_BUDGET.peakRssMb} MB`, e.peakRssMb <= LOAD_BUDGET.peakRssMb, `${e.peakRssMb.toFixed(1)} MB`);
    const soak = results.soak;
    if (soak) {
      const growth = `≤ ${LOAD_BUDGET.soakGrowth * 100} %`;
      check('soak', growth, `soak: RSS growth after minute 1 ${growth}`, soak.rssGrowthAfterMinute1 <= LOAD_BUDGET.soakGrowth, `${(soak.rssGrowthAfterMinute1 * 100).toFixed(1)} %`);
    }
    for (const path of ['/', '/over']) {
      const limit = `≤ ${JS_BUDGET.gzipWithoutIslands / KIB} KiB gzip`;
      check(`${path} JS`, limit, `JS ${path} ${limit}`, e.js[path].gzip <= JS_BUDGET.gzipWithoutIslands, `${(e.js[path].gzip / KIB).toFixed(2)} KiB`);
    }
    const form = e.js['/aanmelden'];
    const own = form.gzip - (form.react?.gzip ?? 0);
    const ownLimit = `≤ ${JS_BUDGET.gzipOwnWithIslands / KIB} KiB gzip`;
    check('/aanmelden JS own', ownLimit, `JS /aanmelden, Eiland's own (all but React's module) ${ownLimit}`, Boolean(form.react) && own <= JS_BUDGET.gzipOwnWithIslands, `${(own / KIB).toFixed(2)} KiB`);
    const reactChange = form.react ? reactModuleChange(lock, form.react.gzip) : "no React's module on the page";
    const recorded = `as recorded with React ${REACT_MODULE.versions.react} (${(REACT_MODULE.gzip / KIB).toFixed(2)} KiB gzip)`;
    check('/aanmelden JS React', recorded, `React's module ${recorded}`, reactChange === undefined, reactChange ?? `${(form.react.gzip / KIB).toFixed(2)} KiB gzip, ${(form.react.brotli / KIB).toFixed(2)} KiB brotli`);
    for (const path of BENCH_PAGES) {
      const limit = `≤ ${HTML_BUDGET[/** @type {keyof typeof HTML_BUDGET} */ (path)]} bytes`;
      check(`${path} HTML`, limit, `${path} HTML ${limit}`, e.html[path] <= HTML_BUDGET[/** @type {keyof typeof HTML_BUDGET} */ (path)], `${e.html[path]} bytes`);
    }
    const loaded = [e, off].filter(Boolean);
    check('errors', 'none', 'no errors under load', loaded.every((s) => Object.values(s.pages).every((p) => /** @type {any} */ (p).errors === 0)), Object.entries(e.pages).map(([p, v]) => `${p}: ${/** @type {any} */ (v).errors}`).join(', '));
  }

  const o = results.outbox;
  if (o) {
    for (const [m, to] of MAILBOXES) {
      const f = o[m];
      const short = `${f.arrived} of ${f.backlog} in ${f.timeoutS} s`;
      const rate = `≥ ${LOAD_BUDGET.outbox.ratePerS} e-mails/s`;
      check(`outbox ${m} rate`, rate, `outbox to ${to}: ${rate}`, f.ratePerS >= LOAD_BUDGET.outbox.ratePerS, f.error ?? `${(f.ratePerS ?? 0).toFixed(1)} e-mails/s${f.drained ? '' : `, not drained: ${short}`}`);
      const drain = `≤ ${LOAD_BUDGET.outbox.drainS} s`;
      check(`outbox ${m} drain`, drain, `outbox to ${to}: a backlog of ${f.backlog} drained in ${drain}`, f.drained && f.drainS <= LOAD_BUDGET.outbox.drainS, f.error ?? (f.drained ? `${f.drainS.toFixed(2)} s` : `not drained: ${short}`));
      const late = f.late;
      const lateDetail =
        f.error ?? (late.status === null ? 'not posted: no e-mail arrived' : late.status !== 303 ? `the post was answered ${late.status}` : late.arrived ? `${late.delayS.toFixed(2)} s, posted with ${late.backlogArrivedBefore} of ${f.backlog} arrived` : `its e-mail did not arrive within ${f.timeoutS} s of the start`);
      const lateLimit = `≤ ${LOAD_BUDGET.outbox.lateS} s`;
      check(`outbox ${m} late`, lateLimit, `outbox to ${to}: a registration posted during the backlog mailed in ${lateLimit}`, late.arrived && late.delayS <= LOAD_BUDGET.outbox.lateS, lateDetail);
    }
  }
  return verdicts;
}

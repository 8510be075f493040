// The budgets of docs/performance.md §1 that `npm run bench` judges (bench/judge.mjs), and the one
// place their numbers live. Those that are sizes of the build and of the pages are checked on every
// build by `npm test` as well (test/js-budget.test.ts, test/html-budget.test.ts).

/** Bytes in a KiB. */
export const KIB = 1024;

/** What a page makes a browser load, compressed (gzip -9), in bytes. */
export const JS_BUDGET = {
  /** A page without islands: the router. */
  gzipWithoutIslands: 4 * KIB,
  /**
   * A page with a form island (`/aanmelden`, `/contact`), Eiland's own code: everything it loads
   * but React's module (the router, the island runtime, the island with the form layer, its
   * checks and its rule list). React's module is tracked apart: {@link REACT_MODULE}.
   */
  gzipOwnWithIslands: 10 * KIB,
};

/**
 * React's module as the build makes it (build/react.mjs: react, react-dom and scheduler, nothing
 * of Eiland's), gzip -9, recorded with the versions it bundles, as package-lock.json has them. It
 * changes with React; with the same React, a change of its size is a change of something else.
 */
export const REACT_MODULE = {
  versions: { react: '19.3.1', 'react-dom': '19.3.1', scheduler: '0.28.0' },
  gzip: 68054,
};

/**
 * What is wrong with React's module's size, if anything, judged against {@link REACT_MODULE}.
 * @param {{ packages: Record<string, { version?: string }> }} lock package-lock.json, parsed
 * @param {number} gzip the size of React's module as built, gzip -9
 * @returns {string | undefined} what to do, or undefined when the size is the one recorded with these versions
 */
export function reactModuleChange(lock, gzip) {
  const versions = Object.fromEntries(Object.keys(REACT_MODULE.versions).map((name) => [name, lock.packages[`node_modules/${name}`]?.version]));
  const record = `REACT_MODULE = ${JSON.stringify({ versions, gzip })}`;
  const changed = Object.entries(versions).filter(([name, version]) => version !== REACT_MODULE.versions[/** @type {keyof typeof REACT_MODULE.versions} */ (name)]);
  if (changed.length > 0) {
    const from = changed.map(([name, version]) => `${name} ${REACT_MODULE.versions[/** @type {keyof typeof REACT_MODULE.versions} */ (name)]} → ${version}`).join(', ');
    return `React changed (${from}): its module is now ${gzip} bytes gzip (recorded: ${REACT_MODULE.gzip}); record it in bench/budgets.mjs: ${record}`;
  }
  if (gzip === REACT_MODULE.gzip) return undefined;
  return (
    `React's module is ${gzip} bytes gzip, but ${REACT_MODULE.gzip} with the same React (${Object.entries(versions).map(([n, v]) => `${n} ${v}`).join(', ')}): ` +
    `something else changed it (REACT_IMPORTS in build/react.mjs, esbuild, the minifier of build/minify.mjs, or code that is not React's). ` +
    `If that is meant, record it in bench/budgets.mjs: ${record}`
  );
}

/**
 * Each page's HTML in bytes, as `npm run bench` fetches it: no user agent, the whole streamed
 * document, a fresh form's (and a personal page's, with the test kit's registration). Every page
 * of the route table has one (docs/performance.md §1).
 */
export const HTML_BUDGET = {
  '/': 4000,
  '/over': 2500,
  '/voorwaarden': 2500,
  // Its own content grew: who sees a person's data in beheer, and how long the recipient limit keeps its code (docs/beheer.md §7).
  '/privacy': 4500,
  '/aanmelden': 6000,
  '/aanmelden/bedankt': 2000,
  '/aanmeldingen/:id': 4500,
  '/aanmeldingen/:id/verwijderen': 2500,
  '/aanmelding-verwijderd': 2000,
  '/contact': 4000,
  '/contact/bedankt': 2000,
};

/**
 * The commit a post's CPU is measured against, A/B in one run (docs/performance.md §1): the last one
 * whose e-mails were composed and written on the requests' thread.
 */
export const BASELINE_COMMIT = 'e8f322ffa933e1059ef0721762a1ade966513257';

/** What the load, memory and outbox budgets allow (docs/performance.md §1). */
export const LOAD_BUDGET = {
  /**
   * Requests a second with the render cache (`eiland`) against Next.js and Astro. Without the
   * cache the budget is a release's A/B against the one before, not a ratio to a peer.
   */
  throughputVsNext: { '/': 3, '/aanmelden': 8, 'data /': 3, 'POST /aanmelden': 1.2 },
  throughputVsAstro: { '/': 1.5, '/aanmelden': 1.5 },
  /** A post's server CPU, its e-mail included (all threads), against Eiland at the baseline commit (bench/servers.mjs), A/B in one run: at most this share. */
  postCpuVsBaseline: 0.7,
  /** A render cache hit against plain Express sending the same bytes. */
  throughputVsExpress: { '/': 0.8 },
  p99Ms: { '/': 40, '/aanmelden': 50 },
  peakRssMb: 150,
  /** `--soak`: RSS growth after the first minute, a fraction. */
  soakGrowth: 0.1,
  /**
   * The outbox of one instance, to files and to SMTP (docs/operations.md §12): e-mails a second
   * over its backlog's drain; the backlog drained, from the start; a registration posted during
   * the drain, from its post until its e-mail arrives.
   */
  outbox: { ratePerS: 200, drainS: 30, lateS: 30 },
};

/** Beheer's lists with 100 000 registrations (docs/beheer.md §8): each page's p99 in ms, on each engine measured. */
export const BEHEER_BUDGET = { p99Ms: 50, rows: 100_000 };

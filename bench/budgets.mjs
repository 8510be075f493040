// The JavaScript budgets of docs/performance.md §1: checked on every build by `npm test`
// (test/js-budget.test.ts) and reported by `npm run bench`.

/** Bytes in a KiB. */
export const KIB = 1024;

/** What a page makes a browser load, compressed (gzip -9, brotli 11), in bytes. */
export const JS_BUDGET = {
  /** A page without islands: the router. */
  gzipWithoutIslands: 4 * KIB,
  /** A page with a form island (`/aanmelden`, `/contact`): React 19 stays, it is the design. */
  gzipWithIslands: 79 * KIB,
  brotliWithIslands: 69 * KIB,
};

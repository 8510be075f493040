/**
 * Faults injected into a page's requests (docs/qa-kit.md §3): page data answered with a 5xx,
 * assets failing or slow. Re-exported by test/e2e/kit.ts.
 */
import { DATA_HEADER, DATA_MARKER } from '../../../protocol/page-data.js';
import type { HTTPRequest, Page } from 'puppeteer-core';

/** Faults to inject into a page's requests. */
export interface Faults {
  /** Answer page-data requests (`X-Eiland-Data: 1`) with this 5xx status. */
  pageDataStatus?: number;
  /** Delay every `/assets/` response by this many ms. */
  slowAssetsMs?: number;
  /** Fail every `/assets/` request whose path matches (a network error). */
  failAssets?: RegExp;
}

/**
 * Injects faults through request interception (install before navigating; docs/qa-kit.md §3).
 * @param page the page whose requests fail
 * @param faults which requests fail, and how
 * @returns a function that removes them
 */
export async function injectFaults(page: Page, faults: Faults): Promise<() => Promise<void>> {
  await page.setRequestInterception(true);
  const handler = (request: HTTPRequest) => {
    if (request.isInterceptResolutionHandled()) return;
    const path = new URL(request.url()).pathname;
    if (faults.pageDataStatus && request.headers()[DATA_HEADER.toLowerCase()] === DATA_MARKER) {
      void request.respond({ status: faults.pageDataStatus, contentType: 'text/plain', body: 'injected fault' });
    } else if (faults.failAssets && path.startsWith('/assets/') && faults.failAssets.test(path)) {
      void request.abort('failed');
    } else if (faults.slowAssetsMs && path.startsWith('/assets/')) {
      setTimeout(() => void request.continue().catch(() => {}), faults.slowAssetsMs);
    } else {
      void request.continue();
    }
  };
  page.on('request', handler);
  return async () => {
    page.off('request', handler);
    await page.setRequestInterception(false);
  };
}

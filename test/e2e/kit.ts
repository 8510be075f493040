/**
 * The QA kit: puppeteer helpers for driving Eiland in Debian's Chromium or Firefox ESR, locally
 * or against a deployed instance. The project's browser suite is built on it; a QA script of its
 * own imports it the same way:
 *
 *   import { launchChromium, openPage, collectProblems, requestIdOf } from './test/e2e/kit.js';
 *   const chromium = await launchChromium();
 *   const page = await openPage(chromium, 'https://eiland.example/aanmelden', { width: 320 });
 *
 * Selectors: by role and accessible name (`::-p-aria(Aanmelden[role="button"])`) or by label
 * (`#id` of the field a `<label for>` names); where a stable hook is needed, one of
 * {@link TEST_IDS}. Never CSS classes: they change with the design.
 *
 * This file is the kit's entry; its parts live in test/e2e/kit/ (browsers, pages, faults,
 * problems, failure artifacts), each re-exported here.
 */
import type { BuildManifest } from '../../protocol/manifest.js';

export { ARTIFACTS_DIR, saveFailure, withFailureArtifacts } from './kit/artifacts.js';
export { injectFaults, type Faults } from './kit/faults.js';
export { launchChromium, launchFirefox, launchNamed, type BrowserName, type Chromium, type LaunchedBrowser } from './kit/launch.js';
export { BOT_USER_AGENT, hydrateIsland, openPage, requestIdOf, unsupportedOptions, type PageOptions } from './kit/page.js';
export { collectProblems, expectedStatuses, type Problems } from './kit/problems.js';

/**
 * The `data-testid` hooks the site promises to keep (docs/qa-kit.md §4). Everything else is
 * found by role, label or text.
 */
export const TEST_IDS = {
  /** The development build-error overlay (`npm run dev` only). */
  buildOverlay: 'build-overlay',
} as const;

/** The instance under test: `BASE_URL` when set (no trailing slash), else undefined (start one). */
export const BASE_URL: string | undefined = process.env.BASE_URL?.replace(/\/+$/, '') || undefined;

/**
 * The build manifest an instance serves (named by `<meta name="eiland-manifest">` of its start
 * page): asset URLs, islands, routes and images of the deployed build, not of a local one.
 * @param baseUrl the instance, e.g. `http://127.0.0.1:3000`
 * @throws Error when the page names no manifest or it cannot be fetched
 */
export async function manifestOf(baseUrl: string): Promise<BuildManifest> {
  const html = await (await fetch(`${baseUrl}/`)).text();
  const url = /<meta name="eiland-manifest" content="([^"]+)"/.exec(html)?.[1];
  if (!url) throw new Error(`${baseUrl}/ names no build manifest`);
  const res = await fetch(baseUrl + url);
  if (!res.ok) throw new Error(`${baseUrl}${url}: ${res.status}`);
  return (await res.json()) as BuildManifest;
}

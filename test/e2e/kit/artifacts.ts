/**
 * What a failed step leaves behind (docs/qa-kit.md §3): a screenshot and the HTML of its page
 * under `test-results/`. Re-exported by test/e2e/kit.ts.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';

/** Where {@link saveFailure} writes (git-ignored). */
export const ARTIFACTS_DIR = 'test-results';
/**
 * Saves a screenshot and the HTML of a page under `test-results/` (git-ignored), for a failed
 * test; never throws (a closed page saves nothing).
 * @param name a file-name stem, e.g. the test's name
 * @returns the files written
 */
export async function saveFailure(page: Page, name: string): Promise<string[]> {
  const stem = join(ARTIFACTS_DIR, `${new Date().toISOString().replace(/[:.]/g, '-')}-${name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80)}`);
  try {
    await mkdir(ARTIFACTS_DIR, { recursive: true });
    await page.screenshot({ path: `${stem}.png`, fullPage: true });
    await writeFile(`${stem}.html`, await page.content());
    return [`${stem}.png`, `${stem}.html`];
  } catch {
    return [];
  }
}

/**
 * Runs a step with a page, saving its screenshot and HTML when the step fails (then rethrows).
 * @example await withFailureArtifacts(page, 'aanmelden at 320 px', async () => { … })
 */
export async function withFailureArtifacts<T>(page: Page, name: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    const files = await saveFailure(page, name);
    if (error instanceof Error && files.length > 0) error.message += `\n(saved ${files.join(', ')})`;
    throw error;
  }
}

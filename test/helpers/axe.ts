/**
 * axe-core in a browser suite's page (docs/qa-kit.md §5): WCAG 2.1 A and AA, the violations of the
 * page shown.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'puppeteer-core';

/** axe-core's minified build: the same checks as `axe.source`, less than half the script to compile in each page. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The axe violations of the page shown: `rule: target, …` per violation (scripts must be on). */
export async function violations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return (await page.evaluate(`axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_21_AA)} } }).then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`)) as string[];
}

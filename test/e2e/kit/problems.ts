/**
 * What goes wrong in a page (docs/qa-kit.md §3, §7): console errors and messages, uncaught
 * exceptions and CSP violations, against an allow-list. Re-exported by test/e2e/kit.ts.
 */
import type { ConsoleMessage, Page } from 'puppeteer-core';

/** What went wrong in a page, as its visitor's browser saw it. */
export interface Problems {
  /** Console errors and uncaught exceptions, in order. */
  errors: string[];
  /** Every console message of any level (`type: text`) and uncaught exception, in order. */
  messages: string[];
  /** Content-Security-Policy violations: `directive blocked-uri`. */
  cspViolations: string[];
  /** The problems not on the allow-list. */
  unexpected(): string[];
  /**
   * Throws unless there are no unexpected problems.
   * @throws Error listing them
   */
  assertNone(): void;
}

/**
 * The allow-list of {@link collectProblems}: Chromium logs "Failed to load resource: the server
 * responded with a status of N" for every 4xx/5xx answer, also the ones a test asks for on
 * purpose (an error page, a refused form). List the statuses you expect.
 * @param statuses e.g. `[404]` for a test that opens a missing page
 */
export function expectedStatuses(statuses: number[]): RegExp[] {
  return statuses.map((status) => new RegExp(`^Failed to load resource: the server responded with a status of ${status}\\b`));
}

/** A WebDriver BiDi browsing context's log entries (puppeteer's `BidiFrame.browsingContext`). */
interface LogSource {
  on(event: 'log', listener: (event: { entry: { type: string; text: string | null } }) => void): unknown;
}

/**
 * Collects console errors, page exceptions and CSP violations of a page (install before
 * navigating).
 * @param allow lines that are expected (see {@link expectedStatuses})
 */
export async function collectProblems(page: Page, allow: RegExp[] = []): Promise<Problems> {
  const errors: string[] = [];
  const messages: string[] = [];
  const cspViolations: string[] = [];
  /** The lines of the last console message whose object arguments puppeteer could not name. */
  let unnamed: { line: number; error: number } | undefined;
  page.on('console', (message: ConsoleMessage) => {
    const line = messages.push(`${message.type()}: ${message.text()}`) - 1;
    const error = message.type() === 'error' ? errors.push(message.text()) - 1 : -1;
    unnamed = message.text().includes('JSHandle@') ? { line, error } : undefined;
  });
  // Firefox over WebDriver BiDi hands puppeteer an Error argument without a handle, which it names
  // `JSHandle@error`; the log entry's own text has it ("TypeError: …"). The entry arrives right
  // after the console event, on the main frame's browsing context (docs/qa-kit.md §7).
  const context = (page.mainFrame() as unknown as { browsingContext?: LogSource }).browsingContext;
  context?.on('log', ({ entry }) => {
    if (!unnamed || entry.type !== 'console' || !entry.text) return;
    messages[unnamed.line] = messages[unnamed.line]!.replace(/: .*$/s, `: ${entry.text}`);
    if (unnamed.error >= 0) errors[unnamed.error] = entry.text;
    unnamed = undefined;
  });
  page.on('pageerror', (error) => {
    messages.push(`pageerror: ${String(error)}`);
    errors.push(String(error));
  });
  await page.exposeFunction('__eilandCspViolation', (line: string) => cspViolations.push(line));
  await page.evaluateOnNewDocument(
    'document.addEventListener("securitypolicyviolation", (e) => window.__eilandCspViolation(e.violatedDirective + " " + e.blockedURI))',
  );
  const problems: Problems = {
    errors,
    messages,
    cspViolations,
    unexpected: () => [...errors.filter((line) => !allow.some((pattern) => pattern.test(line))), ...cspViolations.map((v) => `CSP: ${v}`)],
    assertNone() {
      const unexpected = problems.unexpected();
      if (unexpected.length > 0) throw new Error(`Unexpected problems in the page:\n  ${unexpected.join('\n  ')}`);
    },
  };
  return problems;
}

/**
 * Client errors (product.md §9): the Application error text in place of what
 * failed, the error on `console.error`, and a beacon report to the server.
 * Browser code only.
 */

/** The exact text of seed-spec §8. */
export const APPLICATION_ERROR = 'Application error: a client-side exception has occurred (see the browser console for more information)';

/** Where reports go (product.md §1). */
const REPORT_URL = '/_eiland/client-errors';
/** product.md §9: a report is at most 8 KiB of JSON. */
const MAX_REPORT_BYTES = 8 * 1024;

/**
 * Replaces an element's content with the Application error alert.
 * @param element the island marker, or `<main>` for the router
 */
export function showApplicationError(element: Element): void {
  const alert = document.createElement('div');
  alert.className = 'application-error';
  alert.setAttribute('role', 'alert');
  alert.lang = 'en';
  alert.textContent = APPLICATION_ERROR;
  element.replaceChildren(alert);
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * Logs an error to the console and reports it with `navigator.sendBeacon`.
 * @param error what was thrown
 * @param island the island's name, or undefined for the router
 */
export function reportClientError(error: unknown, island?: string): void {
  console.error(error);
  const err = error instanceof Error ? error : new Error(String(error));
  const requestId = document.querySelector('meta[name="request-id"]')?.getAttribute('content') ?? undefined;
  const report = { message: truncate(err.message, 1000), stack: truncate(err.stack ?? '', 5000), url: location.href.slice(0, 1000), island, requestId };
  let body = JSON.stringify(report);
  if (new Blob([body]).size > MAX_REPORT_BYTES) body = JSON.stringify({ ...report, stack: '' });
  try {
    navigator.sendBeacon?.(REPORT_URL, new Blob([body], { type: 'application/json' }));
  } catch {
    // A report that cannot be sent is lost; the page goes on.
  }
}

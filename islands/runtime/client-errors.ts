/**
 * Client errors (docs/errors.md §5–§6): the Application error text in place of what
 * failed, the error on `console.error`, and a beacon report to the server.
 * Browser code only.
 */

import { APPLICATION_ERROR, CLIENT_ERRORS_PATH, REPORT_LIMITS, type ClientErrorReport } from '../../protocol/client-errors.js';
import { META } from '../../protocol/meta.js';

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

/** At most `max` characters: cut ones end in `…`. */
function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Logs an error to the console and reports it with `navigator.sendBeacon`.
 * @param error what was thrown
 * @param island the island's name, or undefined for the router
 */
export function reportClientError(error: unknown, island?: string): void {
  console.error(error);
  const err = error instanceof Error ? error : new Error(String(error));
  const requestId = document.querySelector(`meta[name="${META.requestId}"]`)?.getAttribute('content') ?? undefined;
  const report: ClientErrorReport = {
    message: truncate(err.message, REPORT_LIMITS.message),
    stack: truncate(err.stack ?? '', REPORT_LIMITS.stack),
    url: location.href.slice(0, REPORT_LIMITS.url),
    island,
    requestId,
  };
  let body = JSON.stringify(report);
  if (new Blob([body]).size > REPORT_LIMITS.bytes) body = JSON.stringify({ ...report, stack: '' });
  try {
    navigator.sendBeacon?.(CLIENT_ERRORS_PATH, new Blob([body], { type: 'application/json' }));
  } catch {
    // A report that cannot be sent is lost; the page goes on.
  }
}

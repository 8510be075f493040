/**
 * The enhanced submit of a valid form (docs/forms.md §5): posted urlencoded with the data marker;
 * a 422 with the marker gives the messages to show inline; a 303 that `fetch` followed continues
 * as a client navigation (the router takes it from a cancelable event), else as a full load;
 * anything else submits the form natively, the no-JavaScript path. Browser code only.
 */
import type { FieldErrors } from '../../../protocol/forms.js';
import { DATA_HEADER, DATA_MARKER, NAVIGATE_EVENT, type NavigateDetail } from '../../../protocol/page-data.js';

/** Submits natively (no submit event, so no loop): the no-JavaScript path. */
function nativeSubmit(form: HTMLFormElement): void {
  HTMLFormElement.prototype.submit.call(form);
}

/**
 * Posts a form the way the island's server expects it.
 * @param form the form element (its `action` is the target)
 * @param onInvalid called with field → message when the server answers 422
 * @returns resolves when the answer has been handled; never rejects (a failure submits natively)
 */
export async function postEnhanced(form: HTMLFormElement, onInvalid: (errors: FieldErrors) => void): Promise<void> {
  try {
    const res = await fetch(form.action, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', [DATA_HEADER]: DATA_MARKER },
      body: new URLSearchParams(new FormData(form) as unknown as Record<string, string>),
      credentials: 'same-origin',
    });
    if (res.status === 422 && res.headers.get(DATA_HEADER) === DATA_MARKER) {
      onInvalid((await res.json()) as FieldErrors);
    } else if (res.ok && res.redirected) {
      const handled = !window.dispatchEvent(new CustomEvent<NavigateDetail>(NAVIGATE_EVENT, { cancelable: true, detail: { response: res } }));
      if (!handled) window.location.assign(res.url);
    } else {
      nativeSubmit(form);
    }
  } catch {
    nativeSubmit(form);
  }
}

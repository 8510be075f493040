/**
 * A form island's hydration (docs/forms.md §5): its page carries as JSON only what the form's
 * markup does not say (`formPropsOnPage`), so before React's first render this reads the rest back
 * from the markup the server rendered: the CSRF token and the submission key from the hidden
 * inputs, the form's name and action from the form element, the island's name from its marker.
 * React then renders exactly what the server did. Browser code only.
 */
import type { ComponentType } from 'react';
import { ISLAND_ATTRIBUTES } from '../../../protocol/islands.js';
import { CSRF_FIELD, formPropsFromPage, SUBMISSION_FIELD, type FormPropsOnPage } from '../../../protocol/forms.js';
import { hydrate } from '../../runtime/hydrate.js';

/**
 * Hydrates a form island: {@link hydrate} with the props made again from the page.
 * @param container the island's `data-island-root` element, the form inside it
 * @throws TypeError when the container holds no form (caught by the runtime: the island fails)
 */
export function hydrateForm(container: HTMLElement, component: ComponentType<Record<string, unknown>>, onPage: FormPropsOnPage, options: Parameters<typeof hydrate>[3]): ReturnType<typeof hydrate> {
  const form = container.querySelector('form')!;
  const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value;
  const props = formPropsFromPage(onPage, {
    csrfToken: value(CSRF_FIELD),
    submissionKey: value(SUBMISSION_FIELD),
    form: { name: form.dataset.form!, action: form.getAttribute('action')!, island: container.parentElement!.getAttribute(ISLAND_ATTRIBUTES.name)! },
  });
  return hydrate(container, component, props as unknown as Record<string, unknown>, options);
}

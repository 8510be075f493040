/**
 * The markup of a form (docs/forms.md §4): the form element with its hidden fields, each field
 * with its label, hint and message (`aria-invalid`, `aria-describedby`, `lang="en"` on the
 * English messages; parts.tsx), the error summary with links that move focus, and the notice.
 * Every form island renders its fields through these; its own part is its copy. A plain input is
 * rendered here; every other control by the markup its declaration brings (textarea.tsx,
 * choices.tsx), so a form carries only its own controls' code. Browser code, rendered on the
 * server too: without JavaScript the same markup carries the server's messages.
 */
import type { ReactNode } from 'react';
import { CSRF_FIELD, HONEYPOT_FIELD, SUBMISSION_FIELD } from '../../../protocol/forms.js';
import { inputValue } from './input-value.js';
import { fieldAnchor, type FieldView, type InputSpec, type PickedSpec } from './fields.js';
import { controlState, labelled, lang, textOf } from './parts.js';
import type { FormController } from './use-form.js';

/** The error summary's heading (docs/forms.md §4). */
const SUMMARY_HEADING = 'Controleer de volgende velden';

function input(view: FieldView<InputSpec | PickedSpec>) {
  const { name, spec, value, error } = view;
  return labelled(
    view,
    <input id={name} name={name} {...inputValue(spec, textOf(value))} autoComplete={spec.autoComplete} {...controlState(name, spec, error)} {...spec.attributes} />,
  );
}

/**
 * One field of the form, as its declaration says: an input, or the control its declaration
 * brings (a textarea, a select, a group of checkboxes or radio buttons, a checkbox), with label,
 * hint and message (docs/forms.md §10).
 * @throws Error when the form declares no such field
 */
export function Field({ form, name }: { form: FormController; name: string }) {
  const spec = form.fields[name];
  if (!spec) throw new Error(`The form has no field "${name}"`);
  const view = { name, spec, value: form.props.values[name], error: form.errors[name] };
  return 'render' in spec ? spec.render(view as never) : input(view as FieldView<InputSpec | PickedSpec>);
}

/**
 * The error summary: the failing fields of the last submit, each a link to its control. Rendered
 * only when there is something in it (no empty summary without JavaScript). A `<section>` named
 * by its heading is a region landmark (docs/forms.md §4); `aria-labelledby` on a plain `<div>`
 * names nothing a screen reader announces, and the Nu Html Checker refuses it (docs/qa-kit.md §6).
 */
export function ErrorSummary({ form }: { form: FormController }) {
  if (form.failing.length === 0) return null;
  return (
    <section className="error-summary" id="foutoverzicht" ref={form.summary} tabIndex={-1} aria-labelledby="foutoverzicht-titel">
      <h2 id="foutoverzicht-titel">{SUMMARY_HEADING}</h2>
      <ul>
        {form.failing.map((name) => (
          <li key={name}>
            {form.fields[name]!.label}:{' '}
            <a href={`#${fieldAnchor(name, form.fields[name]!)}`} lang={lang(form.errors[name])}>
              {form.errors[name]}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A form-level notice from the server, e.g. the expired-session message. */
export function Notice({ form }: { form: FormController }) {
  if (!form.props.notice) return null;
  return (
    <p className="notice" role="alert">
      {form.props.notice}
    </p>
  );
}

/**
 * The form element: posted to its page (the form's `action`) without the browser's own
 * validation bubbles (`novalidate`), named by `data-form` (a hook for styles and QA), with the
 * hidden fields every form carries: the CSRF token, the submission key and the honeypot no
 * keyboard or screen reader reaches. Action and name come from the form's definition (its props).
 */
export function Form({ form, children }: { form: FormController; children: ReactNode }) {
  const { action, name } = form.props.form;
  return (
    <form method="post" action={action} noValidate data-form={name} ref={form.element} {...form.handlers}>
      <input type="hidden" name={CSRF_FIELD} value={form.props.csrfToken} />
      <input type="hidden" name={SUBMISSION_FIELD} value={form.props.submissionKey} />
      <div className="honeypot" aria-hidden="true">
        <label htmlFor={HONEYPOT_FIELD}>Laat dit veld leeg</label>
        <input id={HONEYPOT_FIELD} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      {children}
    </form>
  );
}

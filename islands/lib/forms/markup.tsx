/**
 * The markup of a form (docs/forms.md §4): the form element with its hidden fields, each field
 * with its label, hint and message (`aria-invalid`, `aria-describedby`, `lang="en"` on the
 * English messages), the error summary with links that move focus, and the notice. Every form
 * island renders its fields through these; its own part is its copy. Browser code, rendered on
 * the server too: without JavaScript the same markup carries the server's messages.
 */
import type { ReactNode } from 'react';
import { CSRF_FIELD, HONEYPOT_FIELD, SUBMISSION_FIELD } from '../../../protocol/forms.js';
import { messageLanguage } from '../../../protocol/messages.js';
import { inputValue } from './input-value.js';
import { fieldAnchor, type CheckboxesSpec, type CheckboxSpec, type FieldSpec, type InputSpec, type PickedSpec, type RadiosSpec, type SelectSpec, type TextareaSpec } from './fields.js';
import type { FormController } from './use-form.js';

/** The error summary's heading (docs/forms.md §4). */
const SUMMARY_HEADING = 'Controleer de volgende velden';

/** `en` for an English message (marked inside the Dutch page), else nothing. */
function lang(message: string | undefined): 'en' | undefined {
  return message !== undefined && messageLanguage(message) === 'en' ? 'en' : undefined;
}

function describedBy(name: string, spec: FieldSpec, error: string | undefined): string | undefined {
  return [spec.hint ? `${name}-hint` : '', error ? `${name}-fout` : ''].filter(Boolean).join(' ') || undefined;
}

// The parts of a field are plain functions given plain objects, not components given spread
// props: a component per part and object spreads over the many shapes of field made the
// registration island render in 92 µs instead of 56 on the server (docs/performance.md §4).

/** A field's hint and message; a message only when there is one (no empty markup without JavaScript). */
function fieldMessages(name: string, spec: FieldSpec, error: string | undefined) {
  return (
    <>
      {spec.hint && (
        <p className="hint" id={`${name}-hint`}>
          {spec.hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={`${name}-fout`} lang={lang(error)}>
          {error}
        </p>
      )}
    </>
  );
}

/** The attributes every control of a field carries. */
function controlState(name: string, spec: FieldSpec, error: string | undefined) {
  return { 'aria-invalid': error ? ('true' as const) : undefined, 'aria-describedby': describedBy(name, spec, error) };
}

const fieldClass = (error: string | undefined, extra = '') => `field${error ? ' field-invalid' : ''}${extra}`;

type FieldView<S extends FieldSpec> = { name: string; spec: S; value: string | string[] | undefined; error: string | undefined };

/** A field with one control: its label, hint and message above the control. */
function labelled({ name, spec, error }: FieldView<FieldSpec>, control: ReactNode) {
  return (
    <div className={fieldClass(error)} data-field={name}>
      <label htmlFor={name}>{spec.label}</label>
      {fieldMessages(name, spec, error)}
      {control}
    </div>
  );
}

/** The text a single-valued control starts with. */
const textOf = (value: string | string[] | undefined) => (typeof value === 'string' ? value : '');

function input(view: FieldView<InputSpec | PickedSpec>) {
  const { name, spec, value, error } = view;
  return labelled(
    view,
    <input id={name} name={name} {...inputValue(spec, textOf(value))} autoComplete={spec.autoComplete} {...controlState(name, spec, error)} {...spec.attributes} />,
  );
}

function textarea(view: FieldView<TextareaSpec>) {
  const { name, spec, value, error } = view;
  return labelled(
    view,
    <spec.Control id={name} name={name} rows={spec.rows} defaultValue={textOf(value)} {...controlState(name, spec, error)} {...spec.attributes} />,
  );
}

function select(view: FieldView<SelectSpec>) {
  const { name, spec, value, error } = view;
  return labelled(
    view,
    <select id={name} name={name} autoComplete={spec.autoComplete} defaultValue={textOf(value)} {...controlState(name, spec, error)}>
      <option value="">{spec.placeholder}</option>
      {Object.entries(spec.options).map(([option, label]) => (
        <option key={option} value={option}>
          {label}
        </option>
      ))}
    </select>,
  );
}

/** A group of boxes of one name: checkboxes (any number sent) or radio buttons (one). */
function group({ name, spec, value, error }: FieldView<CheckboxesSpec | RadiosSpec>) {
  const chosen = new Set(Array.isArray(value) ? value : typeof value === 'string' ? [value] : []);
  const type = spec.control === 'radios' ? 'radio' : 'checkbox';
  return (
    <fieldset className={fieldClass(error)} data-field={name}>
      <legend>{spec.label}</legend>
      {fieldMessages(name, spec, error)}
      {Object.entries(spec.options).map(([option, label]) => (
        <div className="choice" key={option}>
          <input id={`${name}-${option}`} name={name} type={type} value={option} defaultChecked={chosen.has(option)} {...controlState(name, spec, error)} />
          <label htmlFor={`${name}-${option}`}>{label}</label>
        </div>
      ))}
    </fieldset>
  );
}

function checkbox({ name, spec, value, error }: FieldView<CheckboxSpec>) {
  return (
    <div className={fieldClass(error, ' choice')} data-field={name}>
      {fieldMessages(name, spec, error)}
      <input id={name} name={name} type="checkbox" value={spec.value} defaultChecked={value !== undefined && value !== ''} {...controlState(name, spec, error)} />
      <label htmlFor={name}>{spec.content ?? spec.label}</label>
    </div>
  );
}

/**
 * One field of the form, as its declaration says: an input, a textarea, a select, a group of
 * checkboxes or radio buttons, or a checkbox, with label, hint and message (docs/forms.md §10).
 * @throws Error when the form declares no such field
 */
export function Field({ form, name }: { form: FormController; name: string }) {
  const spec = form.fields[name];
  if (!spec) throw new Error(`The form has no field "${name}"`);
  const value = form.props.values[name];
  const error = form.errors[name];
  switch (spec.control) {
    case 'textarea':
      return textarea({ name, spec, value, error });
    case 'select':
      return select({ name, spec, value, error });
    case 'checkboxes':
    case 'radios':
      return group({ name, spec, value, error });
    case 'checkbox':
      return checkbox({ name, spec, value, error });
    default:
      return input({ name, spec, value, error });
  }
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

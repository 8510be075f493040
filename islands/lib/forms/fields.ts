/**
 * A form's fields as its island declares them once (docs/forms.md): control, label, hint and the
 * control's own attributes. The markup helpers, the error summary and the reading of values all
 * follow this declaration, in its order. Browser code, rendered on the server too.
 */
import type { ReactNode } from 'react';

/** What every field has. */
interface FieldBase {
  /** The label (for a checkbox group: the legend); the error summary names the field by it. */
  label: string;
  /** A hint shown under the label. */
  hint?: string;
}

/** An input of one line: its type (a `password` is never shown back, docs/forms.md §10). */
export interface InputSpec extends FieldBase {
  control: 'text' | 'email' | 'url' | 'number' | 'tel' | 'password';
  autoComplete?: string;
  /** Further attributes of the input, e.g. `{ spellCheck: 'false' }`. */
  attributes?: Record<string, string>;
}

/**
 * An input whose value a person picks: a date or a time, declared with `dateField` or `timeField`
 * (islands/lib/forms/date-time.ts), which bring HTML's rule of what it can hold; so only a form
 * with such a field carries that rule (docs/forms.md §10).
 */
export interface PickedSpec extends FieldBase {
  control: 'date' | 'time';
  /** Whether the input can hold a value (HTML's value format): one it cannot is not shown back. */
  holds(value: string): boolean;
  autoComplete?: string;
  /** Further attributes of the input, e.g. `{ min: '2026-01-01' }`. */
  attributes?: Record<string, string>;
}

/**
 * A `<textarea>`, declared with `textareaField` (islands/lib/forms/textarea.tsx), which brings its
 * markup: a control that keeps what was typed into it before hydration, which React would
 * otherwise set back (docs/forms.md §5). So only a form with a textarea carries that code
 * (docs/forms.md §10).
 */
export interface TextareaSpec extends FieldBase {
  control: 'textarea';
  /** Visible lines. */
  rows?: number;
  attributes?: Record<string, string>;
  render(view: FieldView<TextareaSpec>): ReactNode;
}

/**
 * A `<select>` with an empty first option, declared with `selectField`
 * (islands/lib/forms/choices.tsx), which brings its markup, as the other choices' helpers do.
 */
export interface SelectSpec extends FieldBase {
  control: 'select';
  /** The options' values and labels, in order. */
  options: Readonly<Record<string, string>>;
  /** The text of the empty first option, e.g. `Kies een onderwerp`. */
  placeholder: string;
  autoComplete?: string;
  render(view: FieldView<SelectSpec>): ReactNode;
}

/** A group of checkboxes sending one name several times (`checkboxesField`). */
export interface CheckboxesSpec extends FieldBase {
  control: 'checkboxes';
  options: Readonly<Record<string, string>>;
  render(view: FieldView<CheckboxesSpec>): ReactNode;
}

/** A group of radio buttons: one of its options is sent (`radiosField`). */
export interface RadiosSpec extends FieldBase {
  control: 'radios';
  options: Readonly<Record<string, string>>;
  render(view: FieldView<RadiosSpec>): ReactNode;
}

/** One checkbox, e.g. consent (`checkboxField`). */
export interface CheckboxSpec extends FieldBase {
  control: 'checkbox';
  /** What a checked box sends. */
  value: string;
  /** What the label shows, when more than its text (e.g. with a link); `label` otherwise. */
  content?: ReactNode;
  render(view: FieldView<CheckboxSpec>): ReactNode;
}

/** A field's declaration. */
export type FieldSpec = InputSpec | PickedSpec | TextareaSpec | SelectSpec | CheckboxesSpec | RadiosSpec | CheckboxSpec;

/** What a field's markup is rendered from: its name and declaration, the value it shows and its message. */
export interface FieldView<S extends FieldSpec = FieldSpec> {
  name: string;
  spec: S;
  value: string | string[] | undefined;
  error: string | undefined;
}

/** A form's fields by name, in form order. */
export type FieldSpecs = Readonly<Record<string, FieldSpec>>;

/**
 * Declares a form's fields (an identity function that keeps the names' types).
 * @example const FIELDS = defineFields({ naam: { control: 'text', label: 'Naam', autoComplete: 'name' } })
 */
export function defineFields<F extends FieldSpecs>(fields: F): F {
  return fields;
}

/** Whether a field is a group of boxes (checkboxes or radio buttons), judged as one when focus leaves it. */
export const isGroup = (spec: FieldSpec): spec is CheckboxesSpec | RadiosSpec => spec.control === 'checkboxes' || spec.control === 'radios';

/**
 * The element id a field's summary link moves focus to: the control, or a group's first box.
 * @throws Error for a group without options
 */
export function fieldAnchor(name: string, spec: FieldSpec): string {
  if (!isGroup(spec)) return name;
  const first = Object.keys(spec.options)[0];
  if (first === undefined) throw new Error(`The group "${name}" has no options`);
  return `${name}-${first}`;
}

/**
 * Reads a form's current values as the server would receive them: a string per field (a radio
 * group's chosen option), an array for a checkbox group (undefined when nothing is sent).
 */
export function readValues(form: HTMLFormElement, fields: FieldSpecs): Record<string, string | string[] | undefined> {
  const data = new FormData(form);
  const values: Record<string, string | string[] | undefined> = {};
  for (const [name, spec] of Object.entries(fields)) {
    const all = data.getAll(name).map(String);
    values[name] = spec.control === 'checkboxes' ? (all.length > 0 ? all : undefined) : all[0];
  }
  return values;
}

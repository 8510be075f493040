/**
 * Each form as beheer shows it (docs/beheer.md §4), derived from its definition as Django's admin
 * derives a `ModelAdmin` from a model: its kept fields with their labels, the columns of its list,
 * the fields searched, the choice fields filtered on. A form added by the recipe of
 * docs/forms.md §8 appears in beheer with no file of beheer touched.
 */
import type { FieldSpec } from '../../islands/lib/forms/fields.js';
import type { FormDefinition } from '../forms/define.js';
import type { Keeping } from '../forms/keep.js';
import { traitsOf } from '../forms/rules.js';
import { rulesOf } from '../forms/validate.js';

/** A kept field as beheer shows it. */
export interface AdminField {
  name: string;
  /** Its label in the form, or its name. */
  label: string;
  /** Whether it is a list (a checkbox group). */
  list: boolean;
  /** The values it may have with their labels, for a choice field (an `IsIn` rule); absent: free text or a number. */
  choices?: Readonly<Record<string, string>>;
}

/** A form as beheer shows it. */
export interface FormAdmin {
  /** The form's name: its path in beheer (`/beheer/<name>`). */
  name: string;
  /** Its page's title, e.g. `Contact`. */
  title: string;
  keep: Keeping<object, string>;
  /** Every kept field, in form order. */
  fields: readonly AdminField[];
  /** The fields a list shows, before the date. */
  columns: readonly AdminField[];
  /** The fields searched: name and e-mail, where it keeps them. */
  search: readonly string[];
  /** The choice fields a list filters on. */
  filters: readonly AdminField[];
  /** Whether a submission can be marked answered. */
  answerable: boolean;
  /** Whether the organisation is told of each submission. */
  notify: boolean;
}

/**
 * A kept value as staff read it, in a list, a CSV cell or an e-mail: a choice by its label, a list
 * joined by `, `, nothing as ''.
 */
export function valueText(field: AdminField, value: unknown): string {
  if (value === null || value === undefined) return '';
  const one = (item: unknown) => field.choices?.[String(item)] ?? String(item);
  return Array.isArray(value) ? value.map(one).join(', ') : one(value);
}

/** A field's options as its island declares them, if it has any. */
const optionsOf = (spec: FieldSpec | undefined): Readonly<Record<string, string>> | undefined => (spec && 'options' in spec ? (spec.options as Record<string, string>) : undefined);

/**
 * A form as beheer shows it.
 * @returns undefined for a form that keeps nothing
 */
export function formAdmin(form: FormDefinition): FormAdmin | undefined {
  if (!form.keep) return undefined;
  const rules = rulesOf(form.dto);
  const traits = traitsOf(form.dto);
  const fields = form.keep.fields.map((name): AdminField => {
    const spec = form.beheer.fields?.[name];
    const allowed = rules.get(name)?.find((rule) => rule.name === 'isIn')?.constraints[0] as readonly string[] | undefined;
    const labels = optionsOf(spec);
    return {
      name,
      label: spec?.label ?? name,
      list: traits.get(name)?.transform === 'array',
      ...(allowed && { choices: Object.fromEntries(allowed.map((value) => [value, labels?.[value] ?? value])) }),
    };
  });
  const named = (names: readonly string[]) => names.map((name) => fields.find((field) => field.name === name)).filter((field) => field !== undefined);
  return {
    name: form.name,
    title: form.pages.title,
    keep: form.keep as Keeping<object, string>,
    fields,
    columns: form.beheer.columns ? named(form.beheer.columns) : fields.slice(0, 3),
    search: form.keep.kept.searched,
    filters: fields.filter((field) => field.choices !== undefined),
    answerable: form.beheer.answerable ?? false,
    notify: form.beheer.notify ?? false,
  };
}

/**
 * The forms beheer shows: every form that keeps its submissions, in the form index's order.
 * @param forms the site's forms (src/forms/index.ts)
 */
export function formAdmins(forms: readonly FormDefinition[]): FormAdmin[] {
  return forms.map(formAdmin).filter((admin) => admin !== undefined);
}

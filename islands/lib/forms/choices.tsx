/**
 * The fields whose value is chosen from options (docs/forms.md §10): a `<select>` with an empty
 * first option, a group of checkboxes (one name sent several times), a group of radio buttons (one
 * sent) and a single checkbox. Each is declared with its helper here, which brings its markup, so
 * only a form with such a field carries that code (docs/performance.md §1). Browser code, rendered
 * on the server too.
 */
import type { CheckboxesSpec, CheckboxSpec, FieldView, RadiosSpec, SelectSpec } from './fields.js';
import { controlState, fieldClass, fieldMessages, labelled, textOf } from './parts.js';

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
 * A `<select>` field: an empty first option (its `placeholder`), then the options.
 * @example defineFields({ onderwerp: selectField({ label: 'Onderwerp', placeholder: 'Kies een onderwerp', options: SUBJECTS }) })
 */
export function selectField(field: Omit<SelectSpec, 'control' | 'render'>): SelectSpec {
  return { ...field, control: 'select', render: select };
}

/**
 * A group of checkboxes sending one name once for each box checked.
 * @example defineFields({ interesses: checkboxesField({ label: 'Interesses', options: INTERESTS }) })
 */
export function checkboxesField(field: Omit<CheckboxesSpec, 'control' | 'render'>): CheckboxesSpec {
  return { ...field, control: 'checkboxes', render: group };
}

/**
 * A group of radio buttons: one of its options is sent.
 * @example defineFields({ soort: radiosField({ label: 'Soort', options: { kort: 'Kort', lang: 'Lang' } }) })
 */
export function radiosField(field: Omit<RadiosSpec, 'control' | 'render'>): RadiosSpec {
  return { ...field, control: 'radios', render: group };
}

/**
 * One checkbox, sending its `value` when checked (e.g. consent).
 * @example defineFields({ akkoord: checkboxField({ label: 'Akkoord', value: 'ja' }) })
 */
export function checkboxField(field: Omit<CheckboxSpec, 'control' | 'render'>): CheckboxSpec {
  return { ...field, control: 'checkbox', render: checkbox };
}

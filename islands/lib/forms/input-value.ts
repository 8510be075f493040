/**
 * What an `<input>` is rendered with when a form shows back what was posted (docs/forms.md §4):
 * HTML allows a `url` input only an absolute URL as its value, a `number` input only a number, and
 * a date or time input only a real date or time (its field's own rule, islands/lib/forms/date-time.ts).
 * A URL field keeps what was typed in a text input with the URL keyboard; a number, date or time
 * field gets only what it can hold, as a browser keeps nothing else in it. Browser code, rendered
 * on the server too.
 */
import type { InputSpec, PickedSpec } from './fields.js';

/** The attributes that carry an input's value. */
export interface InputValue {
  type: (InputSpec | PickedSpec)['control'];
  /** `url` when a URL field is shown as text; else none. */
  inputMode?: 'url';
  defaultValue: string;
}

/** A valid floating-point number, the only value a `number` input holds: `-1`, `2.5`, `.5`, `1e3`. */
const NUMBER = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/**
 * Whether a string is an absolute URL a `url` input may carry: it parses without a base, and holds
 * no inner space or backslash and no host label over 63 characters, which a parser forgives and
 * HTML's value rules (DNS's limits on names) do not.
 */
function isAbsoluteUrl(value: string): boolean {
  const trimmed = value.trim();
  if (/[\s\\]/.test(trimmed)) return false;
  // Not URL.canParse: browsers older than 2023 lack it.
  try {
    const { hostname } = new URL(trimmed);
    return hostname.length <= 253 && hostname.split('.').every((label) => label.length <= 63);
  } catch {
    return false;
  }
}

/**
 * The type and value an input is rendered with.
 * @param field the field's declaration: its control, and for a date or time its rule of what it holds
 * @param value the value to show (`''` for none)
 * @returns the declared type and the value, or for a URL field whose value is not an absolute URL
 *   `type="text"` with `inputmode="url"`, or for a number, date or time field whose value its type
 *   cannot hold (`abc`, `2027-02-30`, `24:00`) no value; a password field never gets one
 * @example inputValue({ control: 'url', label: 'Website' }, 'voorbeeld.nl') // { type: 'text', inputMode: 'url', defaultValue: 'voorbeeld.nl' }
 */
export function inputValue(field: InputSpec | PickedSpec, value: string): InputValue {
  const { control } = field;
  if (value === '' || control === 'password') return { type: control, defaultValue: '' };
  if (control === 'url' && !isAbsoluteUrl(value)) return { type: 'text', inputMode: 'url', defaultValue: value };
  const holds = 'holds' in field ? field.holds(value) : control !== 'number' || NUMBER.test(value);
  return { type: control, defaultValue: holds ? value : '' };
}

/**
 * What an `<input>` is rendered with when a form shows back what was posted (docs/forms.md §4):
 * HTML allows a `url` input only an absolute URL as its value and a `number` input only a number.
 * A URL field keeps what was typed in a text input with the URL keyboard; a number field gets only
 * a number, as a browser keeps no other text in it. Browser code, rendered on the server too.
 */
import type { InputSpec } from './fields.js';

/** The attributes that carry an input's value. */
export interface InputValue {
  type: InputSpec['control'];
  /** `url` when a URL field is shown as text; else none. */
  inputMode?: 'url';
  defaultValue: string;
}

/**
 * The values HTML lets an input of each type hold: a valid floating-point number (`-1`, `2.5`,
 * `.5`, `1e3`), a date (`2026-11-25`), a time (`09:30`, `09:30:15`). Another value is dropped.
 */
const HOLDS: Partial<Record<InputSpec['control'], RegExp>> = {
  number: /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?$/,
  date: /^\d{4,}-\d{2}-\d{2}$/,
  time: /^\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?$/,
};

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
 * @param control the field's declared control
 * @param value the value to show (`''` for none)
 * @returns the declared type and the value, or for a URL field whose value is not an absolute URL
 *   `type="text"` with `inputmode="url"`, or for a number, date or time field whose value its type
 *   cannot hold no value; a password field never gets one
 * @example inputValue('url', 'voorbeeld.nl') // { type: 'text', inputMode: 'url', defaultValue: 'voorbeeld.nl' }
 */
export function inputValue(control: InputSpec['control'], value: string): InputValue {
  if (value === '' || control === 'password') return { type: control, defaultValue: '' };
  if (control === 'url' && !isAbsoluteUrl(value)) return { type: 'text', inputMode: 'url', defaultValue: value };
  if (HOLDS[control]?.test(value) === false) return { type: control, defaultValue: '' };
  return { type: control, defaultValue: value };
}

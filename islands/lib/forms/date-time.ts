/**
 * The date and time fields (docs/forms.md §10): `<input type="date">` and `<input type="time">`,
 * each with HTML's rule of what it can hold, so that a form shows back only a real date or time
 * (docs/forms.md §4). The rules live here, beside the fields, not in the markup every form shares:
 * only a form with such a field carries them (docs/performance.md §1). Browser code, rendered on
 * the server too.
 */
import type { PickedSpec } from './fields.js';

/**
 * Whether a string is a valid date string (https://html.spec.whatwg.org/#valid-date-string): a
 * year of four or more digits above 0, a month 01–12 and a day that month has in that year
 * (`2028-02-29`, never `2027-02-29` or `2027-02-30`).
 */
export function isDate(value: string): boolean {
  const [, year = '', month, day] = /^(\d{4,})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.exec(value) ?? [];
  // The calendar repeats every 400 years, and 10 000 is a multiple of 400: a month has as many
  // days as it has in the year 2000 plus the last four digits of the year modulo 400.
  return /[1-9]/.test(year) && Number(day) <= new Date(Date.UTC(2000 + (Number(year.slice(-4)) % 400), Number(month), 0)).getUTCDate();
}

/**
 * Whether a string is a valid time string (https://html.spec.whatwg.org/#valid-time-string): hours
 * 00–23, minutes 00–59, optional seconds 00–59 with up to three digits of a second (`09:30`,
 * `09:30:15.5`; never `24:00` or `12:60`).
 */
export function isTime(value: string): boolean {
  return /^(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,3})?)?$/.test(value);
}

/** What a date or time field declares: as any input, without its control and rule. */
type Picked = Omit<PickedSpec, 'control' | 'holds'>;

/**
 * A date field: `<input type="date">`, showing back only a valid date string.
 * @example defineFields({ datum: dateField({ label: 'Datum' }) })
 */
export function dateField(field: Picked): PickedSpec {
  return { ...field, control: 'date', holds: isDate };
}

/**
 * A time field: `<input type="time">`, showing back only a valid time string.
 * @example defineFields({ tijd: timeField({ label: 'Tijd' }) })
 */
export function timeField(field: Picked): PickedSpec {
  return { ...field, control: 'time', holds: isTime };
}

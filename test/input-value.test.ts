/**
 * The value an input shows back (docs/forms.md §4): a URL field keeps any text, in a text input
 * when it is no absolute URL; a number field shows only a number, a date field only a real date
 * and a time field only a time of the day, as a browser does (HTML's valid date and time strings,
 * https://html.spec.whatwg.org/#valid-date-string).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dateField, timeField } from '../islands/lib/forms/date-time.js';
import type { InputSpec, PickedSpec } from '../islands/lib/forms/fields.js';
import { inputValue, type InputValue } from '../islands/lib/forms/input-value.js';
import { DATE_VALUES, TIME_VALUES, type HeldValue } from './fixtures/date-time-values.js';

/** A field of each control, as an island declares it. */
const FIELD = {
  url: { control: 'url', label: 'Website' },
  number: { control: 'number', label: 'Aantal' },
  email: { control: 'email', label: 'E-mailadres' },
  text: { control: 'text', label: 'Naam' },
  password: { control: 'password', label: 'Wachtwoord' },
  date: dateField({ label: 'Datum' }),
  time: timeField({ label: 'Tijd' }),
} satisfies Record<string, InputSpec | PickedSpec>;

type Case = readonly [keyof typeof FIELD, string, InputValue];

/** Rows for a control that either holds a value as it is or shows nothing. */
const holds = (control: 'date' | 'time', rows: readonly HeldValue[]): Case[] => rows.map(([value, held]) => [control, value, { type: control, defaultValue: held ? value : '' }]);

const CASES: readonly Case[] = [
  ['url', '', { type: 'url', defaultValue: '' }],
  ['url', 'https://anna.voorbeeld.nl', { type: 'url', defaultValue: 'https://anna.voorbeeld.nl' }],
  ['url', ' http://voorbeeld.nl/pad?x=1 ', { type: 'url', defaultValue: ' http://voorbeeld.nl/pad?x=1 ' }],
  ['url', 'ftp://voorbeeld.nl', { type: 'url', defaultValue: 'ftp://voorbeeld.nl' }],
  ['url', 'voorbeeld.nl', { type: 'text', inputMode: 'url', defaultValue: 'voorbeeld.nl' }],
  ['url', 'https://voorbeeld.nl:99999', { type: 'text', inputMode: 'url', defaultValue: 'https://voorbeeld.nl:99999' }],
  ['url', 'http://voor beeld.nl', { type: 'text', inputMode: 'url', defaultValue: 'http://voor beeld.nl' }],
  ['url', `https://${'a'.repeat(64)}.nl`, { type: 'text', inputMode: 'url', defaultValue: `https://${'a'.repeat(64)}.nl` }],
  ['url', `https://${'a'.repeat(63)}.nl`, { type: 'url', defaultValue: `https://${'a'.repeat(63)}.nl` }],
  ['url', 'http:\\\\voorbeeld.nl', { type: 'text', inputMode: 'url', defaultValue: 'http:\\\\voorbeeld.nl' }],
  ['number', '2', { type: 'number', defaultValue: '2' }],
  ['number', '2.5', { type: 'number', defaultValue: '2.5' }],
  ['number', '-1', { type: 'number', defaultValue: '-1' }],
  ['number', '1e1', { type: 'number', defaultValue: '1e1' }],
  ['number', 'abc', { type: 'number', defaultValue: '' }],
  ['number', '+3', { type: 'number', defaultValue: '' }],
  ['number', ' 5 ', { type: 'number', defaultValue: '' }],
  ['number', '5.', { type: 'number', defaultValue: '' }],
  ['number', '0x5', { type: 'number', defaultValue: '' }],
  ['email', 'anna', { type: 'email', defaultValue: 'anna' }],
  ...holds('date', DATE_VALUES),
  ...holds('time', TIME_VALUES),
  ['text', ' Anna "de" <Vries> ', { type: 'text', defaultValue: ' Anna "de" <Vries> ' }],
  ['password', 'geheim123', { type: 'password', defaultValue: '' }],
];

describe('inputValue: what an input can carry (docs/forms.md §4)', () => {
  for (const [control, value, expected] of CASES) {
    it(`${control} ${JSON.stringify(value)} → type ${expected.type}${expected.inputMode ? ` inputmode ${expected.inputMode}` : ''}, value ${JSON.stringify(expected.defaultValue)}`, () => {
      assert.deepEqual(inputValue(FIELD[control], value), expected);
    });
  }
});

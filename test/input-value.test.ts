/**
 * The value an input shows back (docs/forms.md §4): a URL field keeps any text, in a text input
 * when it is no absolute URL; a number field shows only a number, as a browser does.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inputValue, type InputValue } from '../islands/lib/forms/input-value.js';
import type { InputSpec } from '../islands/lib/forms/fields.js';

const CASES: ReadonlyArray<readonly [InputSpec['control'], string, InputValue]> = [
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
  ['text', ' Anna "de" <Vries> ', { type: 'text', defaultValue: ' Anna "de" <Vries> ' }],
];

describe('inputValue: what an input can carry (docs/forms.md §4)', () => {
  for (const [control, value, expected] of CASES) {
    it(`${control} ${JSON.stringify(value)} → type ${expected.type}${expected.inputMode ? ` inputmode ${expected.inputMode}` : ''}, value ${JSON.stringify(expected.defaultValue)}`, () => {
      assert.deepEqual(inputValue(control, value), expected);
    });
  }
});

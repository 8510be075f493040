/**
 * Every control of the form layer (docs/forms.md §10), as the server renders it, JavaScript or
 * not: each input type with its value shown back where its type can hold it, a password never,
 * radio buttons and checkboxes checked as posted; a `@Secret()` field left out of what a form
 * shows again; and controls styled by where they stand, never by a list of types.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { IsNotEmpty } from 'class-validator';
import { renderToString } from 'react-dom/server';
import { dateField, timeField } from '../islands/lib/forms/date-time.js';
import { defineFields } from '../islands/lib/forms/fields.js';
import { Field, Form } from '../islands/lib/forms/markup.js';
import { useForm } from '../islands/lib/forms/use-form.js';
import type { FormProps } from '../protocol/forms.js';
import { defineForm } from '../src/forms/define.js';
import { Secret } from '../src/forms/rules.js';
import { validateForm } from '../src/forms/validate.js';
import { attributesOf } from './helpers/form.js';
import { islandBundles } from './helpers/island-bundles.js';

const FIELDS = defineFields({
  naam: { control: 'text', label: 'Naam' },
  telefoon: { control: 'tel', label: 'Telefoon' },
  datum: dateField({ label: 'Datum' }),
  tijd: timeField({ label: 'Tijd' }),
  wachtwoord: { control: 'password', label: 'Wachtwoord' },
  aantal: { control: 'number', label: 'Aantal' },
  soort: { control: 'radios', label: 'Soort', options: { kort: 'Kort', lang: 'Lang' } },
  dagen: { control: 'checkboxes', label: 'Dagen', options: { ma: 'Maandag', di: 'Dinsdag' } },
});

function TestForm(props: FormProps) {
  const form = useForm(FIELDS, props);
  return (
    <Form form={form}>
      {Object.keys(FIELDS).map((name) => (
        <Field key={name} form={form} name={name} />
      ))}
    </Form>
  );
}

const render = (values: FormProps['values']) =>
  renderToString(<TestForm values={values} errors={{}} csrfToken="t" submissionKey="k" form={{ name: 'proef', action: '/proef', island: 'TestForm' }} />);

describe('the controls of the form layer (docs/forms.md §10)', () => {
  it('renders each input with its type and shows back what its type can hold; a password never', () => {
    const html = render({ naam: 'Anna', telefoon: '+31 20 123 4567', datum: '2026-11-25', tijd: '09:30', wachtwoord: 'geheim123', aantal: '2' });
    const expected: Record<string, [string, string | undefined]> = {
      naam: ['text', 'Anna'],
      telefoon: ['tel', '+31 20 123 4567'],
      datum: ['date', '2026-11-25'],
      tijd: ['time', '09:30'],
      wachtwoord: ['password', ''],
      aantal: ['number', '2'],
    };
    for (const [name, [type, value]] of Object.entries(expected)) {
      const input = attributesOf(html, 'input', name);
      assert.equal(input?.type, type, `${name}'s type`);
      assert.equal(input?.value, value, `${name}'s value`);
    }
    assert.doesNotMatch(html, /geheim123/, 'the password is nowhere in the page');
  });

  it('drops a value a date, time or number input cannot hold, as a browser would: no date that is not in the calendar, no 24:00', () => {
    for (const values of [{ datum: '25-11-2026', tijd: 'half tien', aantal: 'twee' }, { datum: '2027-02-29', tijd: '24:00', aantal: '5.' }, { datum: '2027-04-31', tijd: '12:60' }]) {
      const html = render(values);
      for (const name of Object.keys(values)) assert.equal(attributesOf(html, 'input', name)?.value, '', `${name} ${JSON.stringify(values[name as keyof typeof values])}`);
    }
  });

  it('renders a radio group as a fieldset of radio buttons, the posted one checked, linked to its first option', () => {
    const html = render({ soort: 'lang', dagen: ['di'] });
    assert.match(html, /<fieldset class="field" data-field="soort"><legend>Soort<\/legend>/);
    assert.equal(attributesOf(html, 'input', 'soort-kort')?.type, 'radio');
    assert.equal(attributesOf(html, 'input', 'soort-kort')?.checked, undefined);
    assert.equal(attributesOf(html, 'input', 'soort-lang')?.checked, '');
    assert.equal(attributesOf(html, 'input', 'dagen-di')?.type, 'checkbox');
    assert.equal(attributesOf(html, 'input', 'dagen-di')?.checked, '');
  });

  it('leaves a field marked @Secret() out of what a form shows again, and validates it all the same', async () => {
    class AccountDto {
      @IsNotEmpty()
      naam!: string;

      @Secret()
      @IsNotEmpty()
      wachtwoord!: string;
    }
    const form = defineForm({ name: 'account', path: '/account', island: 'AccountForm', dto: AccountDto });
    assert.deepEqual(form.fields, ['naam', 'wachtwoord']);
    assert.deepEqual(form.shown, ['naam']);
    const result = await validateForm(AccountDto, { naam: 'Anna', wachtwoord: '' });
    assert.deepEqual(result, { ok: false, errors: { wachtwoord: 'Dit veld is verplicht' } });
  });

  it('takes a date or time field only with its rule of what it holds, and ships the rules only in an island that has such a field', async () => {
    // @ts-expect-error a date field is declared with dateField, which brings what it can hold
    defineFields({ datum: { control: 'date', label: 'Datum' } });
    const { inputs, sources } = await islandBundles(['islands', 'test/islands']);
    const declaring = await Promise.all(
      Object.entries(sources).map(async ([island, source]) => [island, /\b(?:dateField|timeField)\(/.test(await readFile(new URL(`../${source}`, import.meta.url), 'utf8'))] as const),
    );
    assert.ok(declaring.some(([, declares]) => declares), 'an island with a date or time field');
    assert.ok(declaring.some(([, declares]) => !declares), 'an island without');
    for (const [island, declares] of declaring) assert.equal(inputs[island]!.has('islands/lib/forms/date-time.ts'), declares, island);
  });

  it('styles controls by where they stand: no selector of the stylesheet names an input type', async () => {
    const css = await readFile(new URL('../views/styles.css', import.meta.url), 'utf8');
    assert.doesNotMatch(css, /input\[type/);
    assert.match(css, /\.field:not\(\.choice\) > :is\(input, select, textarea\)/);
  });
});

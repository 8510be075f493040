/**
 * Every control of the form layer (docs/forms.md §10), as the server renders it, JavaScript or
 * not: each input type with its value shown back where its type can hold it, a password never,
 * radio buttons and checkboxes checked as posted, a textarea with its text; a `@Secret()` field
 * left out of what a form shows again; the date, time, textarea and choice fields declared only
 * with what they bring, shipped only with a form that has one; and controls styled by where they stand,
 * never by a list of types.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { IsNotEmpty } from 'class-validator';
import { renderToString } from 'react-dom/server';
import { checkboxesField, radiosField } from '../islands/lib/forms/choices.js';
import { dateField, timeField } from '../islands/lib/forms/date-time.js';
import { defineFields } from '../islands/lib/forms/fields.js';
import { Field, Form } from '../islands/lib/forms/markup.js';
import { textareaField } from '../islands/lib/forms/textarea.js';
import { useForm } from '../islands/lib/forms/use-form.js';
import type { FormProps } from '../protocol/forms.js';
import { contactForm } from '../src/forms/contact.js';
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
  soort: radiosField({ label: 'Soort', options: { kort: 'Kort', lang: 'Lang' } }),
  dagen: checkboxesField({ label: 'Dagen', options: { ma: 'Maandag', di: 'Dinsdag' } }),
  bericht: textareaField({ label: 'Bericht', rows: 3 }),
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

  it('renders a textarea with the text shown back as its content, empty without one', () => {
    assert.match(render({ bericht: 'Tot <ziens>\nAnna' }), /<textarea id="bericht" name="bericht" rows="3">Tot &lt;ziens&gt;\nAnna<\/textarea>/);
    assert.match(render({}), /<textarea id="bericht" name="bericht" rows="3"><\/textarea>/);
  });

  it('leaves a field marked @Secret() out of what a form shows again, and validates it all the same', async () => {
    class AccountDto {
      @IsNotEmpty()
      naam!: string;

      @Secret()
      @IsNotEmpty()
      wachtwoord!: string;
    }
    const form = defineForm({ name: 'account', path: '/account', island: 'AccountForm', dto: AccountDto, pages: { ...contactForm.pages, logged: undefined } });
    assert.deepEqual(form.fields, ['naam', 'wachtwoord']);
    assert.deepEqual(form.shown, ['naam']);
    const result = await validateForm(AccountDto, { naam: 'Anna', wachtwoord: '' });
    assert.deepEqual(result, { ok: false, errors: { wachtwoord: 'Dit veld is verplicht' } });
  });

  it('takes a date, time, textarea or choice field only with what it brings, and ships that only in an island that has such a field', async () => {
    // @ts-expect-error a date field is declared with dateField, which brings what it can hold
    defineFields({ datum: { control: 'date', label: 'Datum' } });
    // @ts-expect-error a textarea is declared with textareaField, which brings its control
    defineFields({ bericht: { control: 'textarea', label: 'Bericht' } });
    // @ts-expect-error a select is declared with selectField, which brings its markup
    defineFields({ onderwerp: { control: 'select', label: 'Onderwerp', placeholder: 'Kies', options: {} } });
    const { inputs, sources } = await islandBundles(['islands', 'test/islands']);
    const brought = [
      [/\b(?:dateField|timeField)\(/, 'islands/lib/forms/date-time.ts'],
      [/\btextareaField\(/, 'islands/lib/forms/textarea.tsx'],
      [/\b(?:selectField|checkboxesField|radiosField|checkboxField)\(/, 'islands/lib/forms/choices.tsx'],
    ] as const;
    const texts = await Promise.all(Object.entries(sources).map(async ([island, source]) => [island, await readFile(new URL(`../${source}`, import.meta.url), 'utf8')] as const));
    for (const [declaration, module] of brought) {
      const declaring = texts.map(([island, text]) => [island, declaration.test(text)] as const);
      assert.ok(declaring.some(([, declares]) => declares), `an island that declares ${declaration}`);
      assert.ok(declaring.some(([, declares]) => !declares), `an island that does not declare ${declaration}`);
      for (const [island, declares] of declaring) assert.equal(inputs[island]!.has(module), declares, `${island}: ${module}`);
    }
  });

  it('styles controls by where they stand: no selector of the stylesheet names an input type', async () => {
    const css = await readFile(new URL('../views/styles.css', import.meta.url), 'utf8');
    assert.doesNotMatch(css, /input\[type/);
    assert.match(css, /\.field:not\(\.choice\) > :is\(input, select, textarea\)/);
  });
});

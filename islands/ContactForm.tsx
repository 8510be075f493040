/**
 * The contact form island (docs/forms.md §9): its fields and its copy, on the form layer
 * (islands/lib/forms/).
 */
import { SUBJECTS } from '../protocol/contact.js';
import type { FormProps } from '../protocol/forms.js';
import { selectField } from './lib/forms/choices.js';
import { defineFields } from './lib/forms/fields.js';
import { ErrorSummary, Field, Form, Notice } from './lib/forms/markup.js';
import { textareaField } from './lib/forms/textarea.js';
import { useForm } from './lib/forms/use-form.js';

/** The fields, in form order; beheer shows their labels and options (docs/beheer.md §4). */
export const FIELDS = defineFields({
  naam: { control: 'text', label: 'Naam', autoComplete: 'name' },
  email: { control: 'email', label: 'E-mailadres', hint: 'We antwoorden op dit adres.', autoComplete: 'email' },
  onderwerp: selectField({ label: 'Onderwerp', placeholder: 'Kies een onderwerp', options: SUBJECTS }),
  bericht: textareaField({ label: 'Bericht', hint: 'Minstens 10 en hoogstens 2000 tekens.', rows: 6 }),
});

/** The contact block: error summary, notice, heading, introduction and form. */
export default function ContactForm(props: FormProps) {
  const form = useForm(FIELDS, props);
  return (
    <div className="contact">
      <ErrorSummary form={form} />
      <Notice form={form} />
      <h1>Contact</h1>
      <p>Heb je een vraag, een klacht of een compliment? Laat het ons weten. Alle velden zijn verplicht.</p>
      <Form form={form}>
        {Object.keys(FIELDS).map((name) => (
          <Field key={name} form={form} name={name} />
        ))}
        <button type="submit">Versturen</button>
      </Form>
    </div>
  );
}

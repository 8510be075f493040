/**
 * The registration form island (docs/forms.md §2–§5): its fields and its copy. The form layer
 * (islands/lib/forms/) makes it a plain form without JavaScript and, hydrated, validates it
 * with the rule list the build derived from the DTO and posts it with the data marker.
 */
import type { FormProps } from '../protocol/forms.js';
import { CONSENT_VALUE, INTERESTS } from '../protocol/registration.js';
import { checkboxesField, checkboxField } from './lib/forms/choices.js';
import { defineFields } from './lib/forms/fields.js';
import { ErrorSummary, Field, Form, Notice } from './lib/forms/markup.js';
import { useForm } from './lib/forms/use-form.js';

/** The fields, in form order (docs/forms.md §2). */
export const FIELDS = defineFields({
  naam: { control: 'text', label: 'Naam', autoComplete: 'name' },
  email: { control: 'email', label: 'E-mailadres', autoComplete: 'email' },
  website: { control: 'url', label: 'Website (optioneel)', hint: 'Begin met http:// of https://.', autoComplete: 'url' },
  referentie: { control: 'text', label: 'Referentiecode (optioneel)', hint: 'Heb je een code gekregen? Vul die hier in.', autoComplete: 'off', attributes: { spellCheck: 'false' } },
  gebruikersnaam: {
    control: 'text',
    label: 'Gebruikersnaam',
    hint: '3 tot 20 tekens: kleine letters, cijfers en _.',
    autoComplete: 'username',
    attributes: { autoCapitalize: 'none', spellCheck: 'false' },
  },
  landcode: { control: 'text', label: 'Landcode', hint: 'Twee hoofdletters, bijvoorbeeld NL of BE.', autoComplete: 'country', attributes: { autoCapitalize: 'characters' } },
  interesses: checkboxesField({ label: 'Interesses', hint: 'Kies er 1 tot 3.', options: INTERESTS }),
  personen: { control: 'number', label: 'Aantal personen', hint: 'Met hoeveel personen kom je? 1 tot 10.', attributes: { inputMode: 'numeric', min: '1', max: '10' } },
  akkoord: checkboxField({
    label: 'Ik ga akkoord met de voorwaarden',
    value: CONSENT_VALUE,
    content: (
      <>
        Ik ga akkoord met de <a href="/voorwaarden">voorwaarden</a>
      </>
    ),
  }),
});

/** The registration block: error summary, notice, heading, introduction and form. */
export default function RegistrationForm(props: FormProps) {
  const form = useForm(FIELDS, props);
  return (
    <div className="registration">
      <ErrorSummary form={form} />
      <Notice form={form} />
      <h1>Aanmelden</h1>
      <p>Meld je aan in een minuut. Velden zonder &ldquo;optioneel&rdquo; zijn verplicht.</p>
      <Form form={form}>
        {Object.keys(FIELDS).map((name) => (
          <Field key={name} form={form} name={name} />
        ))}
        <button type="submit">Aanmelden</button>
      </Form>
    </div>
  );
}

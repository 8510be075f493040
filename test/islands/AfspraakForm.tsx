/**
 * The test form's island (test/fixtures/appointment.ts): its fields and its copy on the form layer,
 * as a site form's island is; the build derives its rule list from the form's DTO.
 */
import type { FormProps } from '../../protocol/forms.js';
import { radiosField } from '../../islands/lib/forms/choices.js';
import { dateField, timeField } from '../../islands/lib/forms/date-time.js';
import { defineFields } from '../../islands/lib/forms/fields.js';
import { ErrorSummary, Field, Form, Notice } from '../../islands/lib/forms/markup.js';
import { useForm } from '../../islands/lib/forms/use-form.js';
import { APPOINTMENT_KINDS } from '../fixtures/appointment-kinds.js';

/** The fields, in form order; beheer shows their labels and options (docs/beheer.md §4). */
export const FIELDS = defineFields({
  naam: { control: 'text', label: 'Naam', autoComplete: 'name' },
  email: { control: 'email', label: 'E-mailadres', hint: 'De bevestiging komt op dit adres.', autoComplete: 'email' },
  telefoon: { control: 'tel', label: 'Telefoonnummer', autoComplete: 'tel' },
  soort: radiosField({ label: 'Soort afspraak', options: APPOINTMENT_KINDS }),
  datum: dateField({ label: 'Datum' }),
  tijd: timeField({ label: 'Tijd' }),
});

/** The appointment block: error summary, notice, heading, introduction and form. */
export default function AfspraakForm(props: FormProps) {
  const form = useForm(FIELDS, props);
  return (
    <div className="afspraak">
      <ErrorSummary form={form} />
      <Notice form={form} />
      <h1>Afspraak maken</h1>
      <p>Kom kennismaken of een rondleiding volgen. Alle velden zijn verplicht.</p>
      <Form form={form}>
        {Object.keys(FIELDS).map((name) => (
          <Field key={name} form={form} name={name} />
        ))}
        <button type="submit">Afspraak maken</button>
      </Form>
    </div>
  );
}

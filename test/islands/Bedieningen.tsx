/**
 * A test-only form island with the controls no site form uses yet (docs/forms.md §10): tel, date,
 * time, password and a radio group. Its rule list and the checks it names are registered by the
 * island itself (a site form's are derived by the build from its DTO), so the form layer runs in
 * the browser as for any form.
 */
import type { FormProps } from '../../protocol/forms.js';
import type { FormRules } from '../../protocol/rules.js';
import { radiosField } from '../../islands/lib/forms/choices.js';
import { dateField, timeField } from '../../islands/lib/forms/date-time.js';
import { defineFields } from '../../islands/lib/forms/fields.js';
import { ErrorSummary, Field, Form } from '../../islands/lib/forms/markup.js';
import { registerFormRules } from '../../islands/lib/forms/rules.js';
import { useForm } from '../../islands/lib/forms/use-form.js';
import { check as isIn } from '../../islands/lib/rules/isIn.js';
import { check as isNotEmpty } from '../../islands/lib/rules/isNotEmpty.js';
import { check as minLength } from '../../islands/lib/rules/minLength.js';
import { registerChecks } from '../../islands/lib/validate.js';

const FIELDS = defineFields({
  telefoon: { control: 'tel', label: 'Telefoon' },
  datum: dateField({ label: 'Datum' }),
  tijd: timeField({ label: 'Tijd' }),
  wachtwoord: { control: 'password', label: 'Wachtwoord' },
  soort: radiosField({ label: 'Soort', options: { kort: 'Kort', lang: 'Lang' } }),
});

const required = { name: 'isNotEmpty', constraints: [], each: false, message: 'Dit veld is verplicht' };
/** The rule list a DTO with these rules would give. */
const RULES: FormRules = {
  telefoon: { transform: 'trim', optional: false, rules: [required] },
  datum: { transform: null, optional: false, rules: [required] },
  tijd: { transform: null, optional: false, rules: [required] },
  wachtwoord: { transform: null, optional: false, rules: [required, { name: 'minLength', constraints: [8], each: false, message: 'at least 8 characters' }] },
  soort: { transform: null, optional: false, rules: [required, { name: 'isIn', constraints: [['kort', 'lang']], each: false, message: 'Invoer is niet geldig' }] },
};
registerChecks({ isIn, isNotEmpty, minLength });
registerFormRules('Bedieningen', RULES);

/** The form: its summary and its fields. */
export default function Bedieningen(props: FormProps) {
  const form = useForm(FIELDS, props);
  return (
    <>
      <ErrorSummary form={form} />
      <Form form={form}>
        {Object.keys(FIELDS).map((name) => (
          <Field key={name} form={form} name={name} />
        ))}
        <button type="submit">Versturen</button>
      </Form>
    </>
  );
}

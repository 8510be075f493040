/**
 * The registration form (product.md §4), server-rendered: works without
 * JavaScript (`novalidate`, our messages), keeps every value on a re-render,
 * shows an error summary above the `<h1>` and marks each failing field.
 */
import type { ReactNode } from 'react';
import { INTERESTS, type RegistrationField } from '../../src/forms/registration.js';
import { CSRF_FIELD } from '../../src/filter/cross-site.js';
import { messageLanguage } from '../../src/shared/messages.js';

/** Hidden field names of the form (product.md §4). */
export const SUBMISSION_FIELD = '_submission';
export const HONEYPOT_FIELD = 'bedrijf';

/** Props of {@link Aanmelden}. */
export interface AanmeldenProps {
  /** Submitted raw values by field name (strings; an array for `interesses`). */
  values: Partial<Record<RegistrationField, string | string[]>>;
  /** One message per failing field. */
  errors: Partial<Record<RegistrationField, string>>;
  /** A form-level notice, e.g. the expired-session message. */
  notice?: string;
  csrfToken: string;
  /** Per-render key: the same rendered form posted twice stores once. */
  submissionKey: string;
}

/** Label of each field (product.md §4), in form order. */
export const LABELS: Record<RegistrationField, string> = {
  naam: 'Naam',
  email: 'E-mailadres',
  website: 'Website (optioneel)',
  referentie: 'Referentiecode (optioneel)',
  gebruikersnaam: 'Gebruikersnaam',
  landcode: 'Landcode',
  interesses: 'Interesses',
  personen: 'Aantal personen',
  akkoord: 'Ik ga akkoord met de voorwaarden',
};

const HINTS: Partial<Record<RegistrationField, string>> = {
  website: 'Begin met http:// of https://.',
  referentie: 'Heb je een code gekregen? Vul die hier in.',
  gebruikersnaam: '3 tot 20 tekens: kleine letters, cijfers en _.',
  landcode: 'Twee hoofdletters, bijvoorbeeld NL of BE.',
  interesses: 'Kies er 1 tot 3.',
  personen: 'Met hoeveel personen kom je? 1 tot 10.',
};

/** The element id a summary link for a field points at. */
export function fieldAnchor(field: RegistrationField): string {
  return field === 'interesses' ? `interesses-${Object.keys(INTERESTS)[0]}` : field;
}

/** `en` for an English message (marked inside the Dutch page), else nothing. */
function englishOrUndefined(message: string | undefined): 'en' | undefined {
  return message !== undefined && messageLanguage(message) === 'en' ? 'en' : undefined;
}

function describedBy(field: RegistrationField, error: string | undefined): string | undefined {
  const ids = [HINTS[field] ? `${field}-hint` : '', error ? `${field}-fout` : ''].filter(Boolean).join(' ');
  return ids || undefined;
}

function FieldMessages({ field, error }: { field: RegistrationField; error: string | undefined }) {
  return (
    <>
      {HINTS[field] && (
        <p className="hint" id={`${field}-hint`}>
          {HINTS[field]}
        </p>
      )}
      <p className="field-error" id={`${field}-fout`} hidden={!error} lang={englishOrUndefined(error)}>
        {error}
      </p>
    </>
  );
}

interface TextFieldProps {
  field: RegistrationField;
  type?: 'text' | 'email' | 'url' | 'number';
  autoComplete?: string;
  extra?: Record<string, string>;
  props: AanmeldenProps;
}

function TextField({ field, type = 'text', autoComplete, extra, props }: TextFieldProps) {
  const error = props.errors[field];
  const value = props.values[field];
  return (
    <div className={error ? 'field field-invalid' : 'field'} data-field={field}>
      <label htmlFor={field}>{LABELS[field]}</label>
      <FieldMessages field={field} error={error} />
      <input
        id={field}
        name={field}
        type={type}
        autoComplete={autoComplete}
        defaultValue={typeof value === 'string' ? value : ''}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy(field, error)}
        {...extra}
      />
    </div>
  );
}

function Summary({ errors }: { errors: AanmeldenProps['errors'] }) {
  const failing = (Object.keys(LABELS) as RegistrationField[]).filter((f) => errors[f]);
  return (
    <div className="error-summary" id="foutoverzicht" tabIndex={-1} aria-labelledby="foutoverzicht-titel" hidden={failing.length === 0}>
      <h2 id="foutoverzicht-titel">Controleer de volgende velden</h2>
      <ul>
        {failing.map((field) => (
          <li key={field}>
            {LABELS[field]}:{' '}
            <a href={`#${fieldAnchor(field)}`} lang={englishOrUndefined(errors[field])}>
              {errors[field]}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The page content of `/aanmelden`. */
export function Aanmelden(props: AanmeldenProps) {
  const { errors, values } = props;
  const chosen = new Set(Array.isArray(values.interesses) ? values.interesses : []);
  const consent: ReactNode = (
    <>
      Ik ga akkoord met de <a href="/voorwaarden">voorwaarden</a>
    </>
  );
  return (
    <div className="registration">
      <Summary errors={errors} />
      {props.notice && (
        <p className="notice" role="alert">
          {props.notice}
        </p>
      )}
      <h1>Aanmelden</h1>
      <p>Meld je aan in een minuut. Velden zonder &ldquo;optioneel&rdquo; zijn verplicht.</p>
      <form method="post" action="/aanmelden" noValidate data-form="registratie">
        <input type="hidden" name={CSRF_FIELD} value={props.csrfToken} />
        <input type="hidden" name={SUBMISSION_FIELD} value={props.submissionKey} />
        <div className="honeypot" aria-hidden="true">
          <label htmlFor={HONEYPOT_FIELD}>Laat dit veld leeg</label>
          <input id={HONEYPOT_FIELD} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        <TextField field="naam" autoComplete="name" props={props} />
        <TextField field="email" type="email" autoComplete="email" props={props} />
        <TextField field="website" type="url" autoComplete="url" props={props} />
        <TextField field="referentie" autoComplete="off" extra={{ spellCheck: 'false' }} props={props} />
        <TextField field="gebruikersnaam" autoComplete="username" extra={{ autoCapitalize: 'none', spellCheck: 'false' }} props={props} />
        <TextField field="landcode" autoComplete="country" extra={{ autoCapitalize: 'characters' }} props={props} />
        <fieldset className={errors.interesses ? 'field field-invalid' : 'field'} data-field="interesses">
          <legend>{LABELS.interesses}</legend>
          <FieldMessages field="interesses" error={errors.interesses} />
          {Object.entries(INTERESTS).map(([value, label]) => (
            <div className="choice" key={value}>
              <input
                id={`interesses-${value}`}
                name="interesses"
                type="checkbox"
                value={value}
                defaultChecked={chosen.has(value)}
                aria-invalid={errors.interesses ? 'true' : undefined}
                aria-describedby={describedBy('interesses', errors.interesses)}
              />
              <label htmlFor={`interesses-${value}`}>{label}</label>
            </div>
          ))}
        </fieldset>
        <TextField field="personen" type="number" extra={{ inputMode: 'numeric', min: '1', max: '10' }} props={props} />
        <div className={errors.akkoord ? 'field field-invalid choice' : 'field choice'} data-field="akkoord">
          <FieldMessages field="akkoord" error={errors.akkoord} />
          <input
            id="akkoord"
            name="akkoord"
            type="checkbox"
            value="ja"
            defaultChecked={values.akkoord !== undefined && values.akkoord !== ''}
            aria-invalid={errors.akkoord ? 'true' : undefined}
            aria-describedby={describedBy('akkoord', errors.akkoord)}
          />
          <label htmlFor="akkoord">{consent}</label>
        </div>
        <button type="submit">Aanmelden</button>
      </form>
    </div>
  );
}

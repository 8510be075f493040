/**
 * The registration form island (docs/forms.md §2–§5, docs/islands.md). Server-rendered, it is a
 * plain form that works without JavaScript. Hydrated, it validates on blur
 * after a change and on submit with the rule list the server derived from the
 * DTO, and posts valid forms with the data marker: 422 JSON → inline messages;
 * a followed 303 → handed to the router (else a full load); any other failure
 * → a native submit.
 */
import { useEffect, useRef, useState, type FocusEvent, type FormEvent, type ReactNode } from 'react';
import {
  CONSENT_VALUE,
  CSRF_FIELD,
  HONEYPOT_FIELD,
  INTERESTS,
  REGISTRATION_FIELDS,
  SUBMISSION_FIELD,
  type RegistrationField,
} from '../protocol/registration.js';
import { formTitle } from '../protocol/forms.js';
import { messageLanguage } from '../protocol/messages.js';
import { DATA_HEADER, NAVIGATE_EVENT, type NavigateDetail } from '../protocol/page-data.js';
import type { FormRules } from '../protocol/rules.js';
import { validateField, validateValues } from './lib/validate.js';

export { validateValues };

declare global {
  // The DTO's rule list, embedded by the build (build/client.mjs) in this island's chunk (esbuild `define`); never
  // set on the server, which renders the form without validating in it.
  var EILAND_REGISTRATION_RULES: FormRules | undefined;
}

/** The rule list this island evaluates (docs/forms.md §5): derived from the DTO at build time. */
export const RULES: FormRules = globalThis.EILAND_REGISTRATION_RULES ?? {};

/** Field → message. */
export type FieldErrors = Partial<Record<RegistrationField, string>>;

/** Props of {@link RegistrationForm}: plain JSON, serialised into the page. */
export interface RegistrationFormProps {
  /** Submitted raw values by field name (strings; an array for `interesses`). */
  values: Partial<Record<RegistrationField, string | string[]>>;
  /** One message per failing field (from the server's validation). */
  errors: FieldErrors;
  /** A form-level notice, e.g. the expired-session message. */
  notice?: string;
  csrfToken: string;
  /** Per-render key: the same rendered form posted twice stores once. */
  submissionKey: string;
}

/** Label of each field (docs/forms.md §2). */
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

const isField = (name: string): name is RegistrationField => (REGISTRATION_FIELDS as readonly string[]).includes(name);

/** The element id a summary link for a field points at. */
function fieldAnchor(field: RegistrationField): string {
  return field === 'interesses' ? `interesses-${Object.keys(INTERESTS)[0]}` : field;
}

/** `en` for an English message (marked inside the Dutch page), else nothing. */
function lang(message: string | undefined): 'en' | undefined {
  return message !== undefined && messageLanguage(message) === 'en' ? 'en' : undefined;
}

function describedBy(field: RegistrationField, error: string | undefined): string | undefined {
  return [HINTS[field] ? `${field}-hint` : '', error ? `${field}-fout` : ''].filter(Boolean).join(' ') || undefined;
}

function FieldMessages({ field, error }: { field: RegistrationField; error: string | undefined }) {
  return (
    <>
      {HINTS[field] && (
        <p className="hint" id={`${field}-hint`}>
          {HINTS[field]}
        </p>
      )}
      {/* Only when there is a message: no empty markup for readers without JavaScript (§6). */}
      {error && (
        <p className="field-error" id={`${field}-fout`} lang={lang(error)}>
          {error}
        </p>
      )}
    </>
  );
}

interface TextFieldProps {
  field: RegistrationField;
  type?: 'text' | 'email' | 'url' | 'number';
  autoComplete?: string;
  extra?: Record<string, string>;
  value: string | string[] | undefined;
  error: string | undefined;
}

function TextField({ field, type = 'text', autoComplete, extra, value, error }: TextFieldProps) {
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

/** Reads the form's current values as the server would receive them. */
function readValues(form: HTMLFormElement): Record<string, string | string[] | undefined> {
  const data = new FormData(form);
  const values: Record<string, string | string[] | undefined> = {};
  for (const field of REGISTRATION_FIELDS) {
    const all = data.getAll(field).map(String);
    values[field] = field === 'interesses' ? (all.length > 0 ? all : undefined) : all[0];
  }
  return values;
}

/** Submits natively (no submit event, so no loop): the no-JavaScript path. */
function nativeSubmit(form: HTMLFormElement): void {
  HTMLFormElement.prototype.submit.call(form);
}

/** What a click acts on: a press on these is guarded. */
const CLICKABLE = 'button, a[href], label, input[type="checkbox"], input[type="radio"], input[type="submit"], select';

/** After a release that did not end in a click (a drag, a cancelled touch), held updates wait no longer than this, in ms. */
const PRESS_RELEASE_MS = 700;

/**
 * Holds layout changes while a pointer is pressed (docs/forms.md §5: no lost click). A blur message
 * shown between the press and the click (the blur comes with the press) would push the
 * pressed button from under the pointer, and the click would land elsewhere. So updates made
 * during a press run once the click that ends it has reached the window (or shortly after a
 * release without a click, e.g. a drag or a handler that stopped the click);
 * with no press under way — keyboard, or a blur by script — they run at once.
 * @returns `afterPress(update)`: runs `update` now, or after the press
 */
function usePressGuard(): (update: () => void) => void {
  const pressing = useRef(false);
  const held = useRef<(() => void)[]>([]);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      clearTimeout(timer);
      pressing.current = false;
      for (const update of held.current.splice(0)) update();
    };
    // Only a press on something that acts on click: a press in a text field focuses it at once.
    const down = (event: Event) => {
      if (!(event.target as Element | null)?.closest?.(CLICKABLE)) return;
      clearTimeout(timer);
      pressing.current = true;
    };
    // On the window, as the click bubbles out: its target is decided (the press is over), so
    // the held updates may move things now; the submit the click starts follows the dispatch.
    const clicked = () => flush();
    const released = () => {
      clearTimeout(timer);
      timer = setTimeout(flush, PRESS_RELEASE_MS);
    };
    const events: [string, (event: Event) => void][] = [
      ['pointerdown', down],
      ['pointerup', released],
      ['pointercancel', released],
    ];
    for (const [type, listener] of events) document.addEventListener(type, listener, true);
    window.addEventListener('click', clicked);
    return () => {
      clearTimeout(timer);
      for (const [type, listener] of events) document.removeEventListener(type, listener, true);
      window.removeEventListener('click', clicked);
    };
  }, []);
  return (update) => {
    if (pressing.current) held.current.push(update);
    else update();
  };
}

/** The registration block: error summary, notice, heading and form. */
export default function RegistrationForm(props: RegistrationFormProps) {
  const [errors, setErrors] = useState<FieldErrors>(props.errors);
  // The summary lists the fields of the last submit that still fail.
  const [summarised, setSummarised] = useState<RegistrationField[]>(REGISTRATION_FIELDS.filter((f) => props.errors[f]));
  const [focusSummary, setFocusSummary] = useState(0);
  const changed = useRef(new Set<string>());
  const pending = useRef(false);
  const summary = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (focusSummary > 0) summary.current?.focus();
  }, [focusSummary]);

  // Like the server's re-render: the error prefix in the title while the summary shows errors.
  const failing = summarised.filter((f) => errors[f]);
  useEffect(() => {
    document.title = formTitle(document.title, failing.length > 0);
  }, [failing.length]);

  const showSubmitErrors = (next: FieldErrors) => {
    setErrors(next);
    setSummarised(REGISTRATION_FIELDS.filter((f) => next[f]));
    setFocusSummary((n) => n + 1);
  };

  const onChange = (event: FormEvent<HTMLFormElement>) => {
    const name = (event.target as unknown as HTMLInputElement).name;
    if (isField(name)) changed.current.add(name);
  };

  const afterPress = usePressGuard();

  const onBlur = (event: FocusEvent<HTMLFormElement>) => {
    const name = (event.target as unknown as HTMLInputElement).name;
    if (!isField(name) || !changed.current.has(name)) return;
    // A checkbox group is judged when focus leaves the group.
    if (name === 'interesses' && (event.relatedTarget as HTMLInputElement | null)?.name === name) return;
    changed.current.delete(name);
    const rules = RULES[name];
    const message = rules ? validateField(rules, readValues(event.currentTarget)[name]) : undefined;
    afterPress(() => setErrors((prior) => ({ ...prior, [name]: message })));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending.current) return;
    const form = event.currentTarget;
    const found = validateValues(RULES, readValues(form)) as FieldErrors;
    if (Object.keys(found).length > 0) {
      showSubmitErrors(found);
      return;
    }
    pending.current = true;
    setErrors({});
    setSummarised([]);
    fetch(form.action, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', [DATA_HEADER]: '1' },
      body: new URLSearchParams(new FormData(form) as unknown as Record<string, string>),
      credentials: 'same-origin',
    })
      .then(async (res) => {
        if (res.status === 422 && res.headers.get(DATA_HEADER) === '1') {
          pending.current = false;
          showSubmitErrors((await res.json()) as FieldErrors);
        } else if (res.ok && res.redirected) {
          // The followed 303 continues as a router navigation, or else as a full load.
          const handled = !window.dispatchEvent(new CustomEvent<NavigateDetail>(NAVIGATE_EVENT, { cancelable: true, detail: { response: res } }));
          if (!handled) window.location.assign(res.url);
        } else {
          nativeSubmit(form);
        }
      })
      .catch(() => nativeSubmit(form));
  };

  const { values } = props;
  const chosen = new Set(Array.isArray(values.interesses) ? values.interesses : []);
  const consent: ReactNode = (
    <>
      Ik ga akkoord met de <a href="/voorwaarden">voorwaarden</a>
    </>
  );
  const text = (field: RegistrationField, rest: Omit<TextFieldProps, 'field' | 'value' | 'error'> = {}) => (
    <TextField field={field} value={values[field]} error={errors[field]} {...rest} />
  );
  return (
    <div className="registration">
      {/* Created when needed: a form without errors carries no summary in its HTML (§6). */}
      {failing.length > 0 && (
        <div className="error-summary" id="foutoverzicht" ref={summary} tabIndex={-1} aria-labelledby="foutoverzicht-titel">
          <h2 id="foutoverzicht-titel">Controleer de volgende velden</h2>
          <ul>
            {failing.map((field) => (
              <li key={field}>
                {LABELS[field]}:{' '}
                <a href={`#${fieldAnchor(field)}`} lang={lang(errors[field])}>
                  {errors[field]}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
      {props.notice && (
        <p className="notice" role="alert">
          {props.notice}
        </p>
      )}
      <h1>Aanmelden</h1>
      <p>Meld je aan in een minuut. Velden zonder &ldquo;optioneel&rdquo; zijn verplicht.</p>
      <form method="post" action="/aanmelden" noValidate data-form="registratie" onSubmit={onSubmit} onChange={onChange} onBlur={onBlur}>
        <input type="hidden" name={CSRF_FIELD} value={props.csrfToken} />
        <input type="hidden" name={SUBMISSION_FIELD} value={props.submissionKey} />
        <div className="honeypot" aria-hidden="true">
          <label htmlFor={HONEYPOT_FIELD}>Laat dit veld leeg</label>
          <input id={HONEYPOT_FIELD} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        {text('naam', { autoComplete: 'name' })}
        {text('email', { type: 'email', autoComplete: 'email' })}
        {text('website', { type: 'url', autoComplete: 'url' })}
        {text('referentie', { autoComplete: 'off', extra: { spellCheck: 'false' } })}
        {text('gebruikersnaam', { autoComplete: 'username', extra: { autoCapitalize: 'none', spellCheck: 'false' } })}
        {text('landcode', { autoComplete: 'country', extra: { autoCapitalize: 'characters' } })}
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
        {text('personen', { type: 'number', extra: { inputMode: 'numeric', min: '1', max: '10' } })}
        <div className={errors.akkoord ? 'field field-invalid choice' : 'field choice'} data-field="akkoord">
          <FieldMessages field="akkoord" error={errors.akkoord} />
          <input
            id="akkoord"
            name="akkoord"
            type="checkbox"
            value={CONSENT_VALUE}
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

/**
 * The parts every field's markup is made of (docs/forms.md §4): the field's element with its
 * label, its hint and message (`lang="en"` on the English messages), and the state every control
 * carries (`aria-invalid`, `aria-describedby`). The markup of plain inputs (markup.tsx) and of
 * each other control (its own module, brought by the helper that declares it) are made of these.
 * Browser code, rendered on the server too.
 */
import type { ReactNode } from 'react';
import { messageLanguage } from '../../../protocol/messages.js';
import type { FieldSpec, FieldView } from './fields.js';

/** `en` for an English message (marked inside the Dutch page), else nothing. */
export function lang(message: string | undefined): 'en' | undefined {
  return message !== undefined && messageLanguage(message) === 'en' ? 'en' : undefined;
}

function describedBy(name: string, spec: FieldSpec, error: string | undefined): string | undefined {
  return [spec.hint ? `${name}-hint` : '', error ? `${name}-fout` : ''].filter(Boolean).join(' ') || undefined;
}

// The parts of a field are plain functions given plain objects, not components given spread
// props: a component per part and object spreads over the many shapes of field made the
// registration island's server render far slower (docs/performance.md §4).

/** A field's hint and message; a message only when there is one (no empty markup without JavaScript). */
export function fieldMessages(name: string, spec: FieldSpec, error: string | undefined) {
  return (
    <>
      {spec.hint && (
        <p className="hint" id={`${name}-hint`}>
          {spec.hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={`${name}-fout`} lang={lang(error)}>
          {error}
        </p>
      )}
    </>
  );
}

/** The attributes every control of a field carries. */
export function controlState(name: string, spec: FieldSpec, error: string | undefined) {
  return { 'aria-invalid': error ? ('true' as const) : undefined, 'aria-describedby': describedBy(name, spec, error) };
}

/** The class of a field's element: `field`, `field-invalid` while it has a message, and any extra. */
export const fieldClass = (error: string | undefined, extra = '') => `field${error ? ' field-invalid' : ''}${extra}`;

/** A field with one control: its label, hint and message above the control. */
export function labelled({ name, spec, error }: FieldView, control: ReactNode) {
  return (
    <div className={fieldClass(error)} data-field={name}>
      <label htmlFor={name}>{spec.label}</label>
      {fieldMessages(name, spec, error)}
      {control}
    </div>
  );
}

/** The text a single-valued control starts with. */
export const textOf = (value: string | string[] | undefined) => (typeof value === 'string' ? value : '');

/**
 * The form controller (docs/forms.md §5): the state and handlers any form island uses. It
 * validates a field on blur after a change (a field edited before hydration too) and the whole
 * form on submit with the island's rule list, shows the server's 422 answer inline, keeps the
 * title's error prefix and the error summary in step, moves focus to the summary after a failed submit, holds layout changes
 * during a press, and posts a valid form once. Browser code, rendered on the server too.
 */
import { useEffect, useRef, useState, type FocusEvent, type FormEvent, type RefObject } from 'react';
import { formTitle, type FieldErrors, type FormProps } from '../../../protocol/forms.js';
import { validateField, validateValues } from '../validate.js';
import { isGroup, readValues, type FieldSpecs } from './fields.js';
import { usePressGuard } from './press-guard.js';
import { formRulesOf } from './rules.js';
import { postEnhanced } from './submit.js';

/** What a form island's markup reads of its controller. */
export interface FormController {
  /** The form's fields, in order. */
  fields: FieldSpecs;
  /** The island's props (values as submitted, token, submission key, notice). */
  props: FormProps;
  /** One message per failing field. */
  errors: FieldErrors;
  /** The fields the error summary lists: those of the last submit that still fail, in form order. */
  failing: string[];
  /** The summary element, focused after a failed submit. */
  summary: RefObject<HTMLElement | null>;
  /** The `<form>` element. */
  element: RefObject<HTMLFormElement | null>;
  /** The `<form>` element's event handlers. */
  handlers: {
    onSubmit(event: FormEvent<HTMLFormElement>): void;
    onChange(event: FormEvent<HTMLFormElement>): void;
    onBlur(event: FocusEvent<HTMLFormElement>): void;
  };
}

/**
 * The controller of a form island.
 * @param fields the form's fields (see `defineFields`)
 * @param props the island's props from the server, with the form's identity (its island names
 *   the rule list the build registered)
 */
export function useForm(fields: FieldSpecs, props: FormProps): FormController {
  const { island } = props.form;
  const names = Object.keys(fields);
  const [errors, setErrors] = useState<FieldErrors>(props.errors);
  const [summarised, setSummarised] = useState<string[]>(names.filter((f) => props.errors[f]));
  const [focusSummary, setFocusSummary] = useState(0);
  const changed = useRef(new Set<string>());
  const pending = useRef(false);
  const summary = useRef<HTMLElement>(null);
  const element = useRef<HTMLFormElement>(null);
  const afterPress = usePressGuard();

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
    setSummarised(names.filter((f) => next[f]));
    setFocusSummary((n) => n + 1);
  };

  const nameOf = (event: { target: unknown }) => (event.target as HTMLInputElement).name;

  const onChange = (event: FormEvent<HTMLFormElement>) => {
    const name = nameOf(event);
    if (fields[name]) changed.current.add(name);
  };

  /** Validates one changed field's current value and shows its message, or clears it. */
  const judge = (name: string, value: string | string[] | undefined) => {
    changed.current.delete(name);
    const rules = formRulesOf(island)[name];
    const message = rules ? validateField(rules, value) : undefined;
    afterPress(() => setErrors((prior) => ({ ...prior, [name]: message })));
  };

  // A field edited before hydration (docs/forms.md §5): judged now if focus has left it, else
  // when it does, as if its changes had been seen. Edited from what the page showed, not from
  // what was posted: a value its control cannot hold was shown as nothing (docs/forms.md §4) and
  // keeps the server's message. A reset copy of the form holds what was rendered, by the browser's
  // own rules for every control.
  useEffect(() => {
    const form = element.current;
    if (!form) return;
    const values = readValues(form, fields);
    const rendered = form.cloneNode(true) as HTMLFormElement;
    rendered.reset();
    const shown = readValues(rendered, fields);
    const focused = (document.activeElement as HTMLInputElement | null)?.name;
    for (const name of names) {
      if (sameValue(values[name], shown[name])) continue;
      changed.current.add(name);
      if (name !== focused) judge(name, values[name]);
    }
  }, []);

  const onBlur = (event: FocusEvent<HTMLFormElement>) => {
    const name = nameOf(event);
    const spec = fields[name];
    if (!spec || !changed.current.has(name)) return;
    // A group of boxes is judged when focus leaves the group.
    if (isGroup(spec) && (event.relatedTarget as HTMLInputElement | null)?.name === name) return;
    judge(name, readValues(event.currentTarget, fields)[name]);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending.current) return;
    const form = event.currentTarget;
    const found = validateValues(formRulesOf(island), readValues(form, fields));
    if (Object.keys(found).length > 0) {
      showSubmitErrors(found);
      return;
    }
    pending.current = true;
    setErrors({});
    setSummarised([]);
    void postEnhanced(form, (serverErrors) => {
      pending.current = false;
      showSubmitErrors(serverErrors);
    });
  };

  return { fields, props, errors, failing, summary, element, handlers: { onSubmit, onChange, onBlur } };
}

/** Whether two readings of a field (`readValues`) send the same. */
function sameValue(a: string | string[] | undefined, b: string | string[] | undefined): boolean {
  return [a].flat().join('\n') === [b].flat().join('\n');
}

/**
 * The textarea field (docs/forms.md §10): a `<textarea>` declared with `textareaField`, which
 * brings its control. When React hydrates an `<input>` it keeps what the input holds, but it sets
 * a textarea back to its starting text whenever that is not empty (react-dom 19's
 * `initTextarea`). So on a page that shows a message again (a 422), whatever was typed into it
 * before hydration would be lost (docs/forms.md §5). The control puts that text back. It lives
 * here, beside the field, and not in the markup every form shares, so only a form with a textarea
 * carries it (docs/performance.md §1). Browser code, rendered on the server too.
 */
import { useLayoutEffect, useState, type TextareaHTMLAttributes } from 'react';
import type { FieldView, TextareaSpec } from './fields.js';
import { controlState, labelled, textOf } from './parts.js';

/** A textarea as the page holds it: the element, its text and its selection (the caret). */
type Held = readonly [HTMLTextAreaElement, string, number, number, 'forward' | 'backward' | 'none'];

/** What the page's textarea of this id holds; nothing on the server or without one. */
function heldBy(id: string): Held | undefined {
  if (typeof document === 'undefined') return undefined;
  const element = document.getElementById(id);
  if (!(element instanceof HTMLTextAreaElement)) return undefined;
  return [element, element.value, element.selectionStart, element.selectionEnd, element.selectionDirection];
}

/**
 * A `<textarea>` that keeps what was typed into it before hydration, and its caret, as an
 * `<input>` does.
 * @param props the textarea's attributes, its `id` among them
 */
function Textarea(props: TextareaHTMLAttributes<HTMLTextAreaElement> & { id: string }) {
  // Read in the first render, before React reaches the element. It is put back before anything
  // paints or reads it, because the controller's check of what was edited before hydration is a
  // passive effect (docs/forms.md §5).
  const [held] = useState(() => heldBy(props.id));
  useLayoutEffect(() => {
    if (!held) return;
    const [element, value, start, end, direction] = held;
    if (element.value === value) return;
    element.value = value;
    element.setSelectionRange(start, end, direction);
  }, [held]);
  return <textarea {...props} />;
}

function textarea(view: FieldView<TextareaSpec>) {
  const { name, spec, value, error } = view;
  return labelled(view, <Textarea id={name} name={name} rows={spec.rows} defaultValue={textOf(value)} {...controlState(name, spec, error)} {...spec.attributes} />);
}

/** What a textarea field declares: as any field, without its control. */
type Declared = Omit<TextareaSpec, 'control' | 'render'>;

/**
 * A textarea field: a `<textarea>` whose text typed before hydration survives it.
 * @example defineFields({ bericht: textareaField({ label: 'Bericht', rows: 6 }) })
 */
export function textareaField(field: Declared): TextareaSpec {
  return { ...field, control: 'textarea', render: textarea };
}

/**
 * What forms share between the server's render and the browser's island (docs/forms.md §4–§5).
 */

/** The prefix of a page's title while its form shows errors: the server's 422 and the island alike. */
const ERROR_TITLE_PREFIX = 'Fout: ';

/**
 * A page title with or without the error prefix.
 * @param title the title without the prefix, e.g. `Aanmelden · Eiland`
 * @param failing whether the form shows errors
 */
export function formTitle(title: string, failing: boolean): string {
  const plain = title.startsWith(ERROR_TITLE_PREFIX) ? title.slice(ERROR_TITLE_PREFIX.length) : title;
  return failing ? ERROR_TITLE_PREFIX + plain : plain;
}

/** The hidden fields every form carries (docs/forms.md §3): CSRF token, per-render submission key, honeypot. */
export const CSRF_FIELD = '_csrf';
export const SUBMISSION_FIELD = '_submission';
export const HONEYPOT_FIELD = 'bedrijf';

/** Field → message: one per failing field (the 422 JSON answer, and a form's props). */
export type FieldErrors = Partial<Record<string, string>>;

/**
 * Which form an island renders, from the form's one definition on the server (docs/forms.md §8):
 * the island writes none of it itself.
 */
interface FormIdentity {
  /** The form's name: its `data-form`. */
  name: string;
  /** Where it posts: the page that shows it. */
  action: string;
  /** The island that renders it, under whose name the build registered its rule list. */
  island: string;
}

/** The props of every form island: what its render on the server is given. */
export interface FormProps {
  /** The submitted values by field name: a string, or an array for a checkbox group. */
  values: Partial<Record<string, string | string[]>>;
  /** One message per failing field (from the server's validation). */
  errors: FieldErrors;
  /** A form-level notice, e.g. the expired-session message. */
  notice?: string;
  csrfToken: string;
  /** Per-render key: the same rendered form posted twice is answered like the first post. */
  submissionKey: string;
  form: FormIdentity;
}

/**
 * What of a form island's props its page carries as JSON (docs/forms.md §5): what the form's markup
 * does not say already. The CSRF token and the submission key are the values of its hidden inputs,
 * the form's name and action its `data-form` and `action`, its island the marker's `data-island`;
 * empty values and errors are left out.
 */
export type FormPropsOnPage = Partial<Pick<FormProps, 'values' | 'errors' | 'notice'>>;

/** What the browser reads back from a form's markup before it hydrates (islands/lib/forms/hydrate.ts). */
export type FormPropsInMarkup = Pick<FormProps, 'csrfToken' | 'submissionKey' | 'form'>;

const filled = (record: object) => Object.keys(record).length > 0;

/**
 * The props a form island's page carries (docs/forms.md §5); {@link formPropsFromPage} makes the
 * props again from them and the markup.
 * @example formPropsOnPage({ values: {}, errors: {}, csrfToken, submissionKey, form }) // {}
 */
export function formPropsOnPage({ values, errors, notice }: FormProps): FormPropsOnPage {
  return { ...(filled(values) ? { values } : {}), ...(filled(errors) ? { errors } : {}), ...(notice === undefined ? {} : { notice }) };
}

/**
 * A form island's props from what its page carries and what its markup says: the inverse of
 * {@link formPropsOnPage}.
 * @param onPage the props script's JSON (`{}` when the page has none)
 * @param markup the hidden inputs' values and the form's identity, read from the page
 */
export function formPropsFromPage(onPage: FormPropsOnPage, markup: FormPropsInMarkup): FormProps {
  return { values: {}, errors: {}, ...onPage, ...markup };
}

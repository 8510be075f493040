/**
 * A form route (docs/forms.md §8): a declared form, its island and what to do with a valid post,
 * made into one page route with its whole POST chain. GET renders the form; POST runs, in order,
 * the rate limit (one counter per form), the body reader, the cross-site protection (those three
 * in src/forms/post.ts), the shape check, the submission key, the honeypot, validation (422 with
 * every value kept, or JSON for the island) and the form's `accept` (303). A repeat of a
 * submission key is answered like the first (the form's storage keeps one row per key).
 */
import { isUUID } from 'class-validator';
import type { ComponentType } from 'react';
import type { Logger } from 'pino';
import { HONEYPOT_FIELD, SUBMISSION_FIELD, type FormProps } from '../../protocol/forms.js';
import { MESSAGES } from '../../protocol/messages.js';
import { declared } from '../../protocol/routes.js';
import { Island } from '../../views/Island.js';
import { HttpError } from '../errors.js';
import type { RateLimit } from '../filter/rate-limit.js';
import type { LoaderContext, PageRoute } from '../route-table.js';
import { readShape } from './body.js';
import type { FormDefinition } from './define.js';
import { postChain, type ActionContext, type ActionResult } from './post.js';
import { validateForm } from './validate.js';

/** What a valid post gets: the typed value, its submission key and the request's logger. */
interface Accepted<T> {
  value: T;
  /** The rendered form's key: the same for a repeat of the same post. */
  submissionKey: string;
  log: Logger;
}

/** Options of {@link formRoute}. */
interface FormRouteOptions<T extends object> {
  form: FormDefinition<T>;
  /** The page title without the site suffix; "Fout: " is put before it while the form shows errors. */
  title: string;
  /** The page's description (docs/pages.md §8). */
  description: string;
  /** The island component (the default export of `islands/<form.island>.tsx`). */
  island: ComponentType<FormProps>;
  /** Where a filled honeypot is sent: a neutral thank-you that stores and tells nothing (docs/forms.md §7). */
  thankYou: string;
  /** Posts per client address and window; counted per form. */
  rateLimit: RateLimit;
  /**
   * Keeps a valid post and says where to go next (303, post/redirect/get). Called again with the
   * same submission key for a repeated post: answer it like the first.
   */
  accept(accepted: Accepted<T>): Promise<{ redirect: string }>;
}

type Submitted = ReturnType<typeof readShape>;

/** The form's props: its identity, a fresh (or the posted) submission key and the token. */
function formProps(form: FormDefinition, ctx: LoaderContext, state: Pick<FormProps, 'values' | 'errors' | 'notice'>, submissionKey: string = ctx.submissionKey()): FormProps {
  return { ...state, csrfToken: ctx.csrfToken(), submissionKey, form: { name: form.name, action: form.path, island: form.island } };
}

/** The submission key of a post: must be the UUID the form was rendered with. */
function submissionKeyOf(fields: Submitted): string {
  const key = fields[SUBMISSION_FIELD];
  if (typeof key !== 'string' || !isUUID(key)) throw new HttpError(400, 'Form shape: missing or invalid submission key');
  return key;
}

/**
 * Makes a form's page route.
 * @throws TypeError when the form's path is not declared in protocol/routes.json with its island
 * @example formRoute({ form: contactForm, title: 'Contact', description: 'Stuur Eiland een vraag.', island: ContactForm, thankYou: '/contact/bedankt', rateLimit, accept })
 */
export function formRoute<T extends object>({ form, title, description, island: component, thankYou, rateLimit, accept }: FormRouteOptions<T>): PageRoute<FormProps> {
  const { path } = form;
  const route = declared(path);
  if (!route.islands.includes(form.island)) throw new TypeError(`Route ${path} must declare the island "${form.island}" in protocol/routes.json`);
  const valuesOf = (fields: Submitted, names: readonly string[] = form.fields): FormProps['values'] =>
    Object.fromEntries(names.filter((f) => fields[f] !== undefined).map((f) => [f, fields[f]!]));
  // What a form rendered again shows: every value but a secret one's (docs/forms.md §10).
  const shownOf = (fields: Submitted) => valuesOf(fields, form.shown);

  const submit = async (ctx: ActionContext): Promise<ActionResult<FormProps>> => {
    const fields = readShape(ctx.req.body, form.shape);
    const submissionKey = submissionKeyOf(fields);
    if (fields[HONEYPOT_FIELD]) return { redirect: thankYou, outcome: 'honeypot' };
    const values = valuesOf(fields);
    const result = await validateForm(form.dto, values);
    if (!result.ok) {
      const failed = Object.keys(result.errors);
      ctx.log.info({ event: 'validation_failed', form: form.name, route: path, fields: failed, count: failed.length }, 'validation_failed');
      return { status: 422, props: formProps(form, ctx, { values: shownOf(fields), errors: result.errors }, submissionKey), data: result.errors };
    }
    return accept({ value: result.value, submissionKey, log: ctx.log });
  };

  // A same-origin post whose token has expired: the form again, every value kept, a fresh token.
  const tokenExpired = async (ctx: ActionContext): Promise<ActionResult<FormProps>> => {
    const fields = readShape(ctx.req.body, form.shape);
    return { status: 403, props: formProps(form, ctx, { values: shownOf(fields), errors: {}, notice: MESSAGES.sessionExpired }, submissionKeyOf(fields)) };
  };

  return {
    ...route,
    title,
    failing: (props) => Object.keys(props.errors).length > 0 || Boolean(props.notice),
    description,
    loader: (ctx) => formProps(form, ctx, { values: {}, errors: {} }),
    View: function FormPage(props: FormProps) {
      return <Island name={form.island} component={component} props={props} trigger="interaction" />;
    },
    post: postChain({ path, action: submit, onTokenExpired: tokenExpired, rateLimit: { limit: rateLimit, counter: form.name } }),
  };
}

/**
 * The page a sent form leads to (docs/pages.md §7): static, and never indexed (docs/pages.md §9).
 * @param path its declared path, e.g. `/contact/bedankt`
 * @param title its title without the site suffix
 * @param description its description (docs/pages.md §8)
 * @param View its content
 * @throws RangeError when the path is not declared in protocol/routes.json
 */
export function thankYouRoute(path: string, title: string, description: string, View: ComponentType): PageRoute {
  return { ...declared(path), title, description, noindex: 'it is only the end of a sent form', View };
}

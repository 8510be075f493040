/**
 * A form's routes (docs/forms.md §8), from its definition: its page with its whole POST chain, and
 * the thank-you page a sent form leads to. GET renders the form; POST runs, in order, the rate
 * limit (one counter per form), the body reader, the cross-site protection (those three in
 * src/forms/post.ts), the shape check, the submission key, the honeypot, validation (422 with
 * every value kept, or JSON for the island), then keeps the submission as the form declares,
 * logs `<name>_received` and answers 303 (post/redirect/get). A repeat of a submission key is
 * answered like the first (the form's storage keeps one row per key).
 */
import { isUUID } from 'class-validator';
import type { ComponentType } from 'react';
import { formPropsOnPage, HONEYPOT_FIELD, SUBMISSION_FIELD, type FormProps } from '../../protocol/forms.js';
import { MESSAGES } from '../../protocol/messages.js';
import { declared, type RouteDeclaration } from '../../protocol/routes.js';
import { Island } from '../../views/Island.js';
import { HttpError } from '../errors.js';
import type { RateLimit } from '../filter/types.js';
import type { AnyPageRoute, LoaderContext, PageRoute } from '../route-table.js';
import type { Storage } from '../storage/types.js';
import { readShape } from './body.js';
import type { FormDefinition } from './define.js';
import { records } from './keep.js';
import { postChain, type ActionContext, type ActionResult } from './post.js';
import { validateForm } from './validate.js';

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
 * The declaration of one of a form's paths: its own (`form.routes`, a test's form), else the one
 * in protocol/routes.json.
 * @throws RangeError when the path is declared in neither
 */
export function declaredFor(form: FormDefinition, path: string): RouteDeclaration {
  if (!form.routes) return declared(path);
  const route = form.routes.find((r) => r.path === path);
  if (!route) throw new RangeError(`Form "${form.name}" declares routes, but not "${path}"`);
  return route;
}

/**
 * A form's routes: its page, which takes its post, and its thank-you page.
 * @param form the form's definition
 * @param storage where the form keeps its submissions
 * @param rateLimit posts per client address and window (docs/forms.md §7; `FORM_RATE_LIMIT`), counted per form
 * @returns [the form's page, its thank-you page]
 * @throws TypeError when the form's path is not declared with its island; RangeError when a path is not declared
 * @example formRoutes(contactForm, storage, { limit: 20, windowMs: 600_000 })
 */
export function formRoutes<T extends object>(form: FormDefinition<T>, storage: Storage, rateLimit: RateLimit): AnyPageRoute[] {
  const { path, pages } = form;
  const thankYou = pages.thankYou.path;
  const route = declaredFor(form, path);
  if (!route.islands.includes(form.island)) throw new TypeError(`Route ${path} must declare the island "${form.island}" in protocol/routes.json`);
  const kept = form.keep && records(storage, form.keep);
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
    const value = result.value as T;
    const saved = kept && (await kept.save(submissionKey, value as never));
    // What the form allows of the post, never the person's data (docs/operations.md §6).
    ctx.log.info({ event: `${form.name}_received`, form: form.name, ...pages.logged?.(value), repeated: saved ? !saved.created : false }, `${form.name}_received`);
    return { redirect: saved && pages.next ? pages.next(saved.id) : thankYou };
  };

  // A same-origin post whose token has expired: the form again, every value kept, a fresh token.
  const tokenExpired = async (ctx: ActionContext): Promise<ActionResult<FormProps>> => {
    const fields = readShape(ctx.req.body, form.shape);
    return { status: 403, props: formProps(form, ctx, { values: shownOf(fields), errors: {}, notice: MESSAGES.sessionExpired }, submissionKeyOf(fields)) };
  };

  const component = pages.island;
  const page: PageRoute<FormProps> = {
    ...route,
    title: pages.title,
    failing: (props) => Object.keys(props.errors).length > 0 || Boolean(props.notice),
    description: pages.description,
    loader: (ctx) => formProps(form, ctx, { values: {}, errors: {} }),
    View: function FormPage(props: FormProps) {
      // The page carries only what the form's markup does not say (docs/forms.md §5).
      return <Island name={form.island} component={component} props={props} onPage={formPropsOnPage(props)} trigger="interaction" />;
    },
    post: postChain({ path, action: submit, onTokenExpired: tokenExpired, rateLimit: { limit: rateLimit, counter: form.name } }),
  };
  return [page, thankYouRoute(declaredFor(form, thankYou), pages.thankYou)];
}

/** The page a sent form leads to (docs/pages.md §7): static, and never indexed (docs/pages.md §9). */
function thankYouRoute(route: RouteDeclaration, { title, description, View }: { title: string; description: string; View: ComponentType }): PageRoute {
  return { ...route, title, description, noindex: 'it is only the end of a sent form', View };
}

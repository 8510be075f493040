/**
 * The registration routes (docs/forms.md §2–§7, docs/pages.md §7): the form, its POST (PRG), the
 * neutral thank-you page and the confirmation page.
 */
import { randomUUID } from 'node:crypto';
import { isUUID } from 'class-validator';
import { HttpError } from '../errors.js';
import { readShape } from '../forms/body.js';
import { RegistrationDto } from '../forms/registration.js';
import { validateForm } from '../forms/validate.js';
import { formTitle } from '../../protocol/forms.js';
import { MESSAGES } from '../../protocol/messages.js';
import { CSRF_FIELD, HONEYPOT_FIELD, INTERESTS, REGISTRATION_FIELDS, SUBMISSION_FIELD } from '../../protocol/registration.js';
import { declared } from '../../protocol/routes.js';
import type { RateLimit } from '../filter/rate-limit.js';
import type { Registration, Storage } from '../storage/types.js';
import RegistrationForm, { type RegistrationFormProps } from '../../islands/RegistrationForm.js';
import { Bedankt } from '../../views/pages/Bedankt.js';
import { Bevestiging, type BevestigingProps } from '../../views/pages/Bevestiging.js';
import { Island } from '../../views/Island.js';
import type { ActionContext, ActionResult, AnyPageRoute, LoaderContext, PageRoute } from './types.js';

/** Where a filled honeypot is sent (docs/forms.md §7: a neutral thank-you). */
export const THANK_YOU_PATH = '/aanmelden/bedankt';

const SHAPE = {
  single: [...REGISTRATION_FIELDS.filter((f) => f !== 'interesses'), CSRF_FIELD, SUBMISSION_FIELD, HONEYPOT_FIELD],
  multiple: ['interesses'],
};

type Submitted = ReturnType<typeof readShape>;

/** The content of `/aanmelden`: the registration form, as the island that hydrates it (docs/forms.md §2). */
function Aanmelden(props: RegistrationFormProps) {
  return <Island name="RegistrationForm" component={RegistrationForm} props={props} />;
}

/**
 * Masks an e-mail address for display: first character of the local part, then `***`
 * (docs/pages.md §7: `a***@voorbeeld.nl`).
 * @param email a stored, valid address
 */
function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

/**
 * The confirmation's props from a stored registration: only what the page shows, the e-mail
 * address masked, interests by their labels.
 */
function confirmationProps(registration: Registration): BevestigingProps {
  return {
    naam: registration.naam,
    interesses: registration.interesses.map((v) => INTERESTS[v as keyof typeof INTERESTS] ?? v),
    personen: registration.personen,
    email: maskEmail(registration.email),
  };
}

function valuesOf(fields: Submitted): RegistrationFormProps['values'] {
  return Object.fromEntries(REGISTRATION_FIELDS.filter((f) => fields[f] !== undefined).map((f) => [f, fields[f]!]));
}

/** The form's props: a fresh (or the posted) submission key and the token. */
function formProps(ctx: LoaderContext, state: Pick<RegistrationFormProps, 'values' | 'errors' | 'notice'>, submissionKey: string = randomUUID()): RegistrationFormProps {
  return { ...state, csrfToken: ctx.csrfToken(), submissionKey };
}

/** The submission key of a post: must be the UUID the form was rendered with. */
function submissionKeyOf(fields: Submitted): string {
  const key = fields[SUBMISSION_FIELD];
  if (typeof key !== 'string' || !isUUID(key)) throw new HttpError(400, 'Form shape: missing or invalid submission key');
  return key;
}

async function submit(storage: Storage, ctx: ActionContext): Promise<ActionResult<RegistrationFormProps>> {
  const fields = readShape(ctx.req.body, SHAPE);
  const submissionKey = submissionKeyOf(fields);
  if (fields[HONEYPOT_FIELD]) return { redirect: THANK_YOU_PATH, outcome: 'honeypot' };

  const values = valuesOf(fields);
  const result = await validateForm(RegistrationDto, values);
  if (!result.ok) {
    const failed = Object.keys(result.errors);
    ctx.log.info({ event: 'validation_failed', route: '/aanmelden', fields: failed, count: failed.length }, 'validation_failed');
    return {
      status: 422,
      props: formProps(ctx, { values, errors: result.errors }, submissionKey),
      data: result.errors,
    };
  }
  const dto = result.value;
  const { id } = await storage.saveRegistration(submissionKey, {
    naam: dto.naam,
    email: dto.email,
    website: dto.website || null,
    referentie: dto.referentie || null,
    gebruikersnaam: dto.gebruikersnaam,
    landcode: dto.landcode,
    interesses: dto.interesses,
    personen: dto.personen,
  });
  return { redirect: `/aanmeldingen/${id}` };
}

async function tokenExpired(ctx: ActionContext): Promise<ActionResult<RegistrationFormProps>> {
  const fields = readShape(ctx.req.body, SHAPE);
  return {
    status: 403,
    props: formProps(ctx, { values: valuesOf(fields), errors: {}, notice: MESSAGES.sessionExpired }, submissionKeyOf(fields)),
  };
}

/**
 * The routes of the registration flow.
 * @param storage where registrations are kept
 * @param rateLimit posts per client address and window (docs/forms.md §7; `FORM_RATE_LIMIT`)
 */
export function registrationRoutes(storage: Storage, rateLimit: RateLimit): AnyPageRoute[] {
  const form: PageRoute<RegistrationFormProps> = {
    ...declared('/aanmelden'),
    title: (p) => formTitle('Aanmelden', Object.keys(p.errors).length > 0 || Boolean(p.notice)),
    loader: (ctx) => formProps(ctx, { values: {}, errors: {} }),
    View: Aanmelden,
    action: (ctx) => submit(storage, ctx),
    onTokenExpired: tokenExpired,
    rateLimit,
  };
  const confirmation: PageRoute<BevestigingProps> = {
    ...declared('/aanmeldingen/:id'),
    title: 'Bedankt voor je aanmelding',
    head: <meta name="robots" content="noindex" />,
    // Whoever has the URL reads the registration: never logged whole.
    secretParams: ['id'],
    loader: async ({ req }) => {
      const id = String(req.params.id);
      if (!isUUID(id)) throw new HttpError(400, 'Route parameter "id" is not a UUID');
      const registration = await storage.findRegistration(id);
      if (!registration) throw new HttpError(404, 'No registration with this id');
      return confirmationProps(registration);
    },
    View: Bevestiging,
  };
  return [form, { ...declared(THANK_YOU_PATH), title: 'Bedankt voor je aanmelding', View: Bedankt }, confirmation];
}


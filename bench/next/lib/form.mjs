/**
 * The POST /aanmelden work of Eiland's src/routes/registration.tsx and
 * src/forms/body.ts, for getServerSideProps (server only): an urlencoded body
 * of at most 32 KiB, the form's shape, the island's rule list, the transforms.
 */
import { CSRF_FIELD, HONEYPOT_FIELD, SUBMISSION_FIELD } from '../../../protocol/forms.js';
import rules from '../rules.json';
import { applyTransform } from '../../../protocol/rules.js';

/** Eiland's FORM_BODY_LIMIT. */
export const FORM_BODY_LIMIT = 32 * 1024;

/** The form's fields, in form order: the keys of its rule list. */
const REGISTRATION_FIELDS = Object.keys(rules);
const SINGLE = new Set([...REGISTRATION_FIELDS.filter((f) => f !== 'interesses'), CSRF_FIELD, SUBMISSION_FIELD, HONEYPOT_FIELD]);
const MULTIPLE = new Set(['interesses']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An answer other than the page: status and a short text. */
export class FormError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * Reads and checks a posted registration form.
 * @param req the request (Node IncomingMessage) of getServerSideProps
 * @returns `{ fields, submissionKey }`: single names as strings, `interesses` as an array
 * @throws FormError 413 (over 32 KiB), 400 (not urlencoded, shape or submission key), as Eiland
 */
export async function readRegistrationForm(req) {
  const type = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw new FormError(400, 'Form shape: not an urlencoded form');
  if (Number(req.headers['content-length'] ?? 0) > FORM_BODY_LIMIT) throw new FormError(413, 'Form too large');
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > FORM_BODY_LIMIT) throw new FormError(413, 'Form too large');
    chunks.push(chunk);
  }
  const fields = Object.create(null);
  for (const [name, value] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) {
    if (MULTIPLE.has(name)) (fields[name] ??= []).push(value);
    else if (!SINGLE.has(name)) throw new FormError(400, 'Form shape: unknown field');
    else if (name in fields) throw new FormError(400, 'Form shape: field sent twice');
    else fields[name] = value;
  }
  const submissionKey = fields[SUBMISSION_FIELD];
  if (typeof submissionKey !== 'string' || !UUID.test(submissionKey)) throw new FormError(400, 'Form shape: missing or invalid submission key');
  return { fields, submissionKey };
}

/** The form's raw values (what the island gets back to re-render). */
export function valuesOf(fields) {
  return Object.fromEntries(REGISTRATION_FIELDS.filter((f) => fields[f] !== undefined).map((f) => [f, fields[f]]));
}

/** Whether the honeypot was filled. */
export const isBot = (fields) => Boolean(fields[HONEYPOT_FIELD]);

/**
 * The stored registration of valid values, with the rule list's transforms (as Eiland's DTO).
 * @param rules the rule list (rules.json)
 * @param values raw values that passed validateValues
 */
export function toRegistration(rules, values) {
  const v = Object.fromEntries(REGISTRATION_FIELDS.map((f) => [f, applyTransform(rules[f]?.transform ?? null, values[f])]));
  return {
    naam: v.naam,
    email: v.email,
    website: v.website || null,
    referentie: v.referentie || null,
    gebruikersnaam: v.gebruikersnaam,
    landcode: v.landcode,
    interesses: v.interesses,
    personen: v.personen,
  };
}

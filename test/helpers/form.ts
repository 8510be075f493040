/**
 * Helpers for posting the registration form like a browser without JavaScript:
 * GET the form (cookies, token, submission key), then POST urlencoded.
 */
import { freshAddress, raw, type RawResponse, type TestApp } from './app.js';

/** Form fields by name; arrays for repeated names, undefined to leave a field out. */
export type Fields = Record<string, string | string[] | undefined>;

/** A complete, valid registration. */
export const VALID: Fields = {
  naam: 'Anna de Vries',
  email: 'anna@voorbeeld.nl',
  website: 'https://anna.voorbeeld.nl',
  referentie: '',
  gebruikersnaam: 'anna_1',
  landcode: 'NL',
  interesses: ['sport', 'natuur'],
  personen: '2',
  akkoord: 'ja',
};

/** The message of every field after an empty submit (product.md §4). */
export const EMPTY_SUBMIT_ERRORS: Readonly<Record<string, string>> = {
  naam: 'Dit veld is verplicht',
  email: 'Dit veld is verplicht',
  gebruikersnaam: 'Dit veld is verplicht',
  landcode: 'Dit veld is verplicht',
  interesses: 'must contain at least 1 value(s)',
  personen: 'Dit veld is verplicht',
  akkoord: 'Dit veld is verplicht',
};

/** What a rendered form gives a browser. */
export interface FormSession {
  cookie: string;
  token: string;
  key: string;
  from: string;
}

/** Encodes fields as `application/x-www-form-urlencoded`, keeping repeats. */
export function encode(fields: Fields): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const v of value === undefined ? [] : Array.isArray(value) ? value : [value]) params.append(name, v);
  }
  return params.toString();
}

/** The cookies a response sets, as a `Cookie` header value. */
export function cookiesOf(res: RawResponse): string {
  return ([] as string[]).concat(res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
}

/** GETs `/aanmelden` from a fresh (or given) address and reads its hidden fields. */
export async function openForm(app: TestApp, from = freshAddress()): Promise<FormSession> {
  const res = await raw(app.port, '/aanmelden', { from });
  const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(res.body)?.[1] ?? '';
  return { cookie: cookiesOf(res), token: hidden('_csrf'), key: hidden('_submission'), from };
}

/** POSTs fields (plus the session's token and key unless overridden) as a same-origin browser. */
export async function postForm(app: TestApp, fields: Fields, session?: FormSession, headers: Record<string, string> = {}): Promise<RawResponse> {
  const s = session ?? (await openForm(app));
  return raw(app.port, '/aanmelden', {
    method: 'POST',
    from: s.from,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: s.cookie, Origin: app.url, 'Sec-Fetch-Site': 'same-origin', ...headers },
    body: encode({ _csrf: s.token, _submission: s.key, ...fields }),
  });
}

/** The inline message of each failing field in a rendered form. */
export function fieldErrors(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<p class="field-error" id="([a-z]+)-fout"([^>]*)>([^<]*)<\/p>/g)) {
    if (!/hidden/.test(m[2]!) && m[3]) out[m[1]!] = m[3];
  }
  return out;
}

const ENTITIES: Record<string, string> = { '&quot;': '"', '&lt;': '<', '&gt;': '>', '&amp;': '&', '&#x27;': "'" };

/**
 * The attributes of the first element with this tag and id, entities decoded.
 * @returns attribute name → value (boolean attributes: ''), or undefined when absent
 */
export function attributesOf(html: string, tag: string, id: string): Record<string, string> | undefined {
  const element = new RegExp(`<${tag}\\b[^>]*\\bid="${id}"[^>]*>`).exec(html)?.[0];
  if (!element) return undefined;
  const attributes: Record<string, string> = {};
  for (const [, name, value] of element.matchAll(/([\w:-]+)="([^"]*)"/g)) {
    attributes[name!] = value!.replace(/&(quot|lt|gt|amp|#x27);/g, (e) => ENTITIES[e]!);
  }
  return attributes;
}

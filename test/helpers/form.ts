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

/** The message of every field after an empty submit (docs/forms.md §1–§2). */
export const EMPTY_SUBMIT_ERRORS: Readonly<Record<string, string>> = {
  naam: 'Dit veld is verplicht',
  email: 'Dit veld is verplicht',
  gebruikersnaam: 'Dit veld is verplicht',
  landcode: 'Dit veld is verplicht',
  interesses: 'must contain at least 1 value(s)',
  personen: 'Dit veld is verplicht',
  akkoord: 'Dit veld is verplicht',
};

/** A valid UUID that no registration has. */
export const UNKNOWN_UUID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';

/**
 * One case per rule of docs/forms.md §2, boundaries included: a field, the value
 * it is given in an otherwise valid form, and its exact message (null: valid).
 */
export const RULE_CASES: ReadonlyArray<readonly [field: string, value: string | string[] | undefined, message: string | null]> = [
  ['naam', '', 'Dit veld is verplicht'],
  ['naam', '   ', 'Dit veld is verplicht'],
  ['naam', 'A', 'at least 2 characters'],
  ['naam', '  A  ', 'at least 2 characters'],
  ['naam', 'Al', null],
  ['naam', 'Zoë Ümit-Çelik', null],
  ['naam', 'x'.repeat(60), null],
  ['naam', 'x'.repeat(61), 'at most 60 characters'],
  ['naam', ` ${'x'.repeat(60)} `, null],
  ['email', '', 'Dit veld is verplicht'],
  ['email', 'anna', 'Dit is geen geldig email adress'],
  ['email', 'anna@', 'Dit is geen geldig email adress'],
  ['email', '  anna@voorbeeld.nl  ', null],
  ['website', '', null],
  ['website', 'voorbeeld.nl', 'Dit is geen geldige URL'],
  ['website', 'ftp://voorbeeld.nl', 'Dit is geen geldige URL'],
  ['website', 'javascript:alert(1)', 'Dit is geen geldige URL'],
  ['website', 'http://voorbeeld.nl/pad?x=1', null],
  ['referentie', '', null],
  ['referentie', 'abc', 'Dit is geen geldige UUID'],
  ['referentie', UNKNOWN_UUID, null],
  ['gebruikersnaam', '', 'Dit veld is verplicht'],
  ['gebruikersnaam', ' anna', 'Dit is geen geldige waarde'],
  ['gebruikersnaam', 'ANNA ', 'Dit is geen geldige waarde'],
  ['gebruikersnaam', 'Anna', 'the value must be lowercase'],
  ['gebruikersnaam', 'an', 'at least 3 characters'],
  ['gebruikersnaam', 'ann', null],
  ['gebruikersnaam', 'a'.repeat(20), null],
  ['gebruikersnaam', 'a'.repeat(21), 'at most 20 characters'],
  ['gebruikersnaam', 'an-na', 'must match the given pattern'],
  ['gebruikersnaam', 'anné', 'must match the given pattern'],
  ['landcode', '', 'Dit veld is verplicht'],
  ['landcode', 'N', 'must be exactly 2 characters'],
  ['landcode', 'NLD', 'must be exactly 2 characters'],
  ['landcode', 'nl', 'the value must be upper case'],
  ['landcode', 'BE', null],
  ['interesses', undefined, 'must contain at least 1 value(s)'],
  ['interesses', ['sport', 'natuur', 'muziek', 'cultuur'], 'must contain at most 3 value(s)'],
  ['interesses', ['sport', 'golf'], 'Invoer is niet geldig'],
  ['interesses', 'techniek', null],
  ['interesses', ['techniek', 'cultuur', 'muziek'], null],
  ['personen', '', 'Dit veld is verplicht'],
  ['personen', 'abc', 'Invoer is niet geldig'],
  ['personen', '2.5', 'Invoer is niet geldig'],
  ['personen', '0', 'Invoer is niet geldig'],
  ['personen', '11', 'Invoer is niet geldig'],
  ['personen', '1', null],
  ['personen', '10', null],
  ['akkoord', undefined, 'Dit veld is verplicht'],
  ['akkoord', 'nee', 'Invoer is niet geldig'],
];

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
export async function openForm(app: Pick<TestApp, 'port'>, from = freshAddress()): Promise<FormSession> {
  const res = await raw(app.port, '/aanmelden', { from });
  const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(res.body)?.[1] ?? '';
  return { cookie: cookiesOf(res), token: hidden('_csrf'), key: hidden('_submission'), from };
}

/** POSTs fields (plus the session's token and key unless overridden) as a same-origin browser. */
export async function postForm(app: Pick<TestApp, 'port' | 'url'>, fields: Fields, session?: FormSession, headers: Record<string, string> = {}): Promise<RawResponse> {
  const s = session ?? (await openForm(app));
  return raw(app.port, '/aanmelden', {
    method: 'POST',
    from: s.from,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: s.cookie, Origin: app.url, 'Sec-Fetch-Site': 'same-origin', ...headers },
    body: encode({ _csrf: s.token, _submission: s.key, ...fields }),
  });
}

/**
 * The request head and body of a same-origin form post as a browser sends it, to be written to a
 * socket in parts (see `openWire`): a post still in flight while the test acts.
 * @param base the site's origin, e.g. `http://127.0.0.1:3000`
 * @param fields the form's fields besides the session's token and key
 */
export function wirePost(base: string, session: FormSession, fields: Fields): { head: string; body: string } {
  const body = encode({ _csrf: session.token, _submission: session.key, ...fields });
  const head = [
    'POST /aanmelden HTTP/1.1',
    `Host: ${new URL(base).host}`,
    'Content-Type: application/x-www-form-urlencoded',
    `Cookie: ${session.cookie}`,
    `Origin: ${base}`,
    'Sec-Fetch-Site: same-origin',
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    '',
  ].join('\r\n');
  return { head, body };
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

/**
 * The visible inline message of each field on a page in Chromium.
 * @param page a puppeteer page showing the registration form
 * @returns field name → message, for the fields showing one
 */
export async function visibleFieldErrors(page: { evaluate(script: string): Promise<unknown> }): Promise<Record<string, string>> {
  // A string, not a function: tsx rewrites functions given to the page (it adds __name calls the page lacks).
  const script = `JSON.stringify(Object.fromEntries([...document.querySelectorAll('.field-error')]
    .filter((e) => e.checkVisibility()).map((e) => [e.id.replace('-fout', ''), e.textContent])))`;
  return JSON.parse(String(await page.evaluate(script))) as Record<string, string>;
}

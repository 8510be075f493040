/**
 * Helpers for posting a form like a browser without JavaScript:
 * GET the form (cookies, token, submission key), then POST urlencoded.
 */
import { CSRF_FIELD, SUBMISSION_FIELD } from '../../protocol/forms.js';
import type { Page } from 'puppeteer-core';
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
export const RULE_CASES: readonly RuleCase[] = [
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

/** A rule table row: a field, the value it is given in an otherwise valid form, and its exact message (null: valid). */
export type RuleCase = readonly [field: string, value: string | string[] | undefined, message: string | null];

/** A complete, valid contact message. */
export const CONTACT_VALID: Fields = {
  naam: 'Anna de Vries',
  email: 'anna@voorbeeld.nl',
  onderwerp: 'vraag',
  bericht: 'Hoe laat begint de rondleiding op zaterdag?',
};

/** One case per rule of the contact form (docs/forms.md §9), boundaries included. */
export const CONTACT_RULE_CASES: readonly RuleCase[] = [
  ['naam', '', 'Dit veld is verplicht'],
  ['naam', '  ', 'Dit veld is verplicht'],
  ['naam', 'A', 'at least 2 characters'],
  ['naam', 'Al', null],
  ['naam', 'x'.repeat(60), null],
  ['naam', 'x'.repeat(61), 'at most 60 characters'],
  ['email', '', 'Dit veld is verplicht'],
  ['email', 'anna', 'Dit is geen geldig email adress'],
  ['email', ' anna@voorbeeld.nl ', null],
  ['onderwerp', '', 'Dit veld is verplicht'],
  ['onderwerp', undefined, 'Dit veld is verplicht'],
  ['onderwerp', 'klacht', null],
  ['onderwerp', 'compliment', null],
  ['onderwerp', 'spam', 'Invoer is niet geldig'],
  ['onderwerp', 'Vraag', 'Invoer is niet geldig'],
  ['bericht', '', 'Dit veld is verplicht'],
  ['bericht', '   ', 'Dit veld is verplicht'],
  ['bericht', 'Te kort.', 'at least 10 characters'],
  ['bericht', '  123456789  ', 'at least 10 characters'],
  ['bericht', '1234567890', null],
  ['bericht', 'x'.repeat(2000), null],
  ['bericht', 'x'.repeat(2001), 'at most 2000 characters'],
];

/** What the test kit knows of each form of src/forms/index.ts, by the form's name. */
export interface FormKit {
  /** Its path. */
  path: string;
  /** Its island's name. */
  island: string;
  /** A complete, valid post. */
  valid: Fields;
  /** One case per rule. */
  cases: readonly RuleCase[];
  /** Inputs across fields besides the cases, for the parity of server and browser. */
  edges: readonly Fields[];
}

/** The kit of every form. */
export const FORM_KITS: Readonly<Record<string, FormKit>> = {
  registration: {
    path: '/aanmelden',
    island: 'RegistrationForm',
    valid: VALID,
    cases: RULE_CASES,
    edges: [
      {},
      { naam: '\t\n', email: ' ', gebruikersnaam: ' ', landcode: ' ', personen: ' ', akkoord: '' },
      { ...VALID, naam: '😀', gebruikersnaam: '😀😀😀', landcode: '😀' },
      { ...VALID, naam: '😀😀', landcode: 'ÉÉ' },
      { ...VALID, naam: 'Ærøskøbing-Ålesund', email: 'jürgen@voorbeeld.de', gebruikersnaam: 'jürgen' },
      { ...VALID, naam: 'a'.repeat(5000), email: `${'a'.repeat(300)}@voorbeeld.nl`, website: `https://${'a'.repeat(3000)}.nl` },
      { ...VALID, gebruikersnaam: 'a'.repeat(2), landcode: 'N' },
      { ...VALID, gebruikersnaam: 'ANNA', landcode: 'Nl' },
      { ...VALID, gebruikersnaam: '_'.repeat(3), personen: '+3' },
      { ...VALID, personen: '-1' },
      { ...VALID, personen: '1e1' },
      { ...VALID, personen: '0x5' },
      { ...VALID, personen: ' 5 ' },
      { ...VALID, personen: '9999999999999999' },
      { ...VALID, website: 'http://localhost' },
      { ...VALID, website: 'https://voorbeeld.nl:99999' },
      { ...VALID, website: 'HTTPS://VOORBEELD.NL' },
      { ...VALID, referentie: '3F2B8C1E-9A4D-4E6F-8B7A-1C2D3E4F5A6B' },
      { ...VALID, referentie: ' 3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b' },
      { ...VALID, email: 'a@b' },
      { ...VALID, email: 'anna@voorbeeld..nl' },
      { ...VALID, email: '"anna de vries"@voorbeeld.nl' },
      { ...VALID, interesses: ['sport', 'sport'] },
      { ...VALID, interesses: ['sport', 'natuur', 'muziek', 'golf'] },
      { ...VALID, interesses: [''] },
      { ...VALID, akkoord: 'JA' },
      { ...VALID, akkoord: ['ja', 'ja'] },
    ],
  },
  contact: {
    path: '/contact',
    island: 'ContactForm',
    valid: CONTACT_VALID,
    cases: CONTACT_RULE_CASES,
    edges: [
      {},
      { naam: '\t\n', email: ' ', onderwerp: ' ', bericht: '\n\n' },
      { ...CONTACT_VALID, naam: '😀', bericht: '😀'.repeat(9) },
      { ...CONTACT_VALID, naam: '😀😀', bericht: '😀'.repeat(10) },
      { ...CONTACT_VALID, naam: 'Ærøskøbing-Ålesund', email: 'jürgen@voorbeeld.de' },
      { ...CONTACT_VALID, naam: 'a'.repeat(5000), email: `${'a'.repeat(300)}@voorbeeld.nl`, bericht: 'b'.repeat(5000) },
      { ...CONTACT_VALID, onderwerp: ['vraag', 'klacht'] },
      { ...CONTACT_VALID, onderwerp: ' vraag' },
      { ...CONTACT_VALID, email: 'a@b' },
      { ...CONTACT_VALID, bericht: 'regel een\nregel twee\n' },
    ],
  },
};

/** What a rendered form gives a browser. */
export interface FormSession {
  /** The form's path, e.g. `/contact`: where it is posted. */
  path: string;
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

/**
 * GETs a form page from a fresh (or given) address and reads its hidden fields.
 * @param path the form's path, e.g. `/aanmelden` or `/contact`
 */
export async function openForm(app: Pick<TestApp, 'port'>, path: string, from = freshAddress()): Promise<FormSession> {
  const res = await raw(app.port, path, { from });
  const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(res.body)?.[1] ?? '';
  return { path, cookie: cookiesOf(res), token: hidden(CSRF_FIELD), key: hidden(SUBMISSION_FIELD), from };
}

/**
 * POSTs fields (plus the session's token and key unless overridden) as a same-origin browser.
 * @param path the form's path; without a session, the form is opened there first
 */
export async function postForm(app: Pick<TestApp, 'port' | 'url'>, path: string, fields: Fields, session?: FormSession, headers: Record<string, string> = {}): Promise<RawResponse> {
  const s = session ?? (await openForm(app, path));
  return raw(app.port, path, {
    method: 'POST',
    from: s.from,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: s.cookie, Origin: app.url, 'Sec-Fetch-Site': 'same-origin', ...headers },
    body: encode({ [CSRF_FIELD]: s.token, [SUBMISSION_FIELD]: s.key, ...fields }),
  });
}

/**
 * The request head and body of a same-origin form post as a browser sends it, to be written to a
 * socket in parts (see `openWire`): a post still in flight while the test acts.
 * @param base the site's origin, e.g. `http://127.0.0.1:3000`
 * @param fields the form's fields besides the session's token and key
 */
export function wirePost(base: string, session: FormSession, fields: Fields): { head: string; body: string } {
  const body = encode({ [CSRF_FIELD]: session.token, [SUBMISSION_FIELD]: session.key, ...fields });
  const head = [
    `POST ${session.path} HTTP/1.1`,
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

/**
 * Replaces the value of a text field or textarea by typing, as a person does (a real change):
 * one click to focus it, then select all and type. One click, not a triple click to select: the
 * blur that click causes may remove a message above and move the field up, and the second and
 * third presses would land on whatever is under the pointer then.
 * @param page a puppeteer page showing a form
 * @param id the control's id (its field name)
 * @param value the new value; empty clears the field
 */
export async function fill(page: Page, id: string, value: string): Promise<void> {
  await page.click(`#${id}`);
  await page.keyboard.down('Control');
  await page.keyboard.press('KeyA');
  await page.keyboard.up('Control');
  await page.keyboard.press('Backspace');
  if (value === '') {
    await page.keyboard.type('1'); // a digit: number fields refuse letters
    await page.keyboard.press('Backspace');
  } else {
    await page.keyboard.type(value);
  }
}

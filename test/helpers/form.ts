/**
 * Helpers for posting a form like a browser without JavaScript:
 * GET the form (cookies, token, submission key), then POST urlencoded.
 */
import { CSRF_FIELD, SUBMISSION_FIELD } from '../../protocol/forms.js';
import type { Page } from 'puppeteer-core';
import type { FormDefinition } from '../../src/forms/define.js';
import { FORMS } from '../fixtures/forms.js';
import { freshAddress, raw, type RawResponse, type TestApp } from './app.js';

/** Form fields by name; arrays for repeated names, undefined to leave a field out. */
export type Fields = Record<string, string | string[] | undefined>;

export { EMPTY_SUBMIT_ERRORS, RULE_CASES, SANNE, UNKNOWN_UUID, VALID } from '../forms/registration.js';
export { CONTACT_RULE_CASES, CONTACT_VALID } from '../forms/contact.js';

/** A rule table row: a field, the value it is given in an otherwise valid form, and its exact message (null: valid). */
export type RuleCase = readonly [field: string, value: string | string[] | undefined, message: string | null];

/** What the test kit knows of a form of src/forms/index.ts. */
export interface FormKit {
  /** Its path. */
  path: string;
  /** Its island's name. */
  island: string;
  /** The accessible name of its submit button, e.g. `Aanmelden`. */
  submit: string;
  /** A complete, valid post. */
  valid: Fields;
  /** One case per rule. */
  cases: readonly RuleCase[];
  /** Inputs across fields besides the cases, for the parity of server and browser. */
  edges: readonly Fields[];
  /** A value in the wrong format for each text field: each fails a rule other than "required". */
  wrongFormats: Fields;
}

/**
 * The kit of every form of src/forms/index.ts, by the form's name, each from `test/forms/<name>.ts`
 * (its export `kit`): a new form brings its own kit file and touches no other.
 */
export const FORM_KITS: Readonly<Record<string, FormKit>> = Object.fromEntries(
  await Promise.all(
    FORMS.map(async (form) => {
      const module = (await import(`../forms/${form.name}.js`).catch((error: unknown) => {
        throw new Error(`The form "${form.name}" has no test kit: add test/forms/${form.name}.ts exporting \`kit\` (a FormKit)`, { cause: error });
      })) as { kit: FormKit };
      return [form.name, module.kit] as const;
    }),
  ),
);

/**
 * Where a stored submission of a form is sent (docs/forms.md §8): its pages' `next` for some id,
 * else its thank-you page.
 * @returns a pattern of the path
 */
export function formDestination(form: FormDefinition): RegExp {
  const id = '00000000-0000-4000-8000-000000000000';
  const next = form.pages.next?.(id);
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return next ? new RegExp(`^${escaped(next).replace(escaped(id), '[0-9a-f-]{36}')}$`) : new RegExp(`^${escaped(form.pages.thankYou.path)}$`);
}

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

/** How {@link fillForm} enters text: `replace` as {@link fill} does, `type` into the field as it is. */
type Typing = 'replace' | 'type';

/**
 * Input types whose value a person picks rather than types: what keys enter depends on the
 * browser and its locale (Chromium's date field in an American locale takes month, day, year), so
 * {@link fillForm} sets their value as the browser's own picker does.
 */
const PICKED = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']);

/**
 * Sets a picked input's value as the browser's own picker does: focus on it (so the field before
 * it loses focus, as when a person moves on), the value set, then `input` and `change`. The value
 * goes through the element's own setter, not the property a framework may have put over it on the
 * element (React's change tracking): the island sees a change, as it sees one made with the picker.
 * A string, not a function: tsx rewrites functions given to the page.
 * @returns the value the input holds afterwards ('' when it cannot hold the one given)
 */
async function pick(page: Page, id: string, value: string): Promise<string> {
  const script = `(() => {
    const input = document.getElementById(${JSON.stringify(id)});
    input.focus();
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, ${JSON.stringify(value)});
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
    return input.value;
  })()`;
  return String(await page.evaluate(script));
}

/**
 * Fills a form in a browser page from values, field by field in their order (docs/qa-kit.md §4):
 * a text field or textarea gets its text, a select its option, the boxes of a checkbox group
 * (`#<name>-<value>`), the option of a radio group and a lone checkbox (`#<name>`) whose values
 * are given are clicked, and a date, time or other picked input (`datetime-local`, `month`,
 * `week`, `color`, `range`) gets its value as the browser's picker sets it, whatever the locale.
 * What kind of control a field is comes from the page: its controls of that name. Works with
 * JavaScript on and off, in Chromium and Firefox (docs/qa-kit.md §7): the form posts what was
 * given, and with JavaScript a field counts as changed, judged when focus leaves it.
 * @param page a puppeteer page showing the form
 * @param values field name → value, e.g. a kit's `valid`; a checkbox group's values as an array;
 *   a date as `2026-11-25`, a time as `09:30` (HTML's value formats, not the locale's);
 *   undefined leaves a field alone, as does '' for a checkbox or radio group ('' empties a
 *   picked input)
 * @param options `typing`: `replace` (the default) replaces a text field's value by typing, as
 *   {@link fill} does; `type` focuses the field and types, as `page.type` does (an empty form;
 *   '' types nothing)
 * @throws Error naming a field the page has no control for, a checkbox or radio value it has no
 *   box for, or a value a picked input cannot hold (`2027-02-30` in a date input)
 */
export async function fillForm(page: Page, values: Fields, { typing = 'replace' }: { typing?: Typing } = {}): Promise<void> {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const controls = await page.$$eval(`[name="${name}"]`, (found) =>
      found.map((control) => ({ kind: control instanceof HTMLInputElement ? control.type : control.tagName.toLowerCase(), id: control.id, value: (control as HTMLInputElement).value })),
    );
    const kind = controls[0]?.kind;
    if (kind === undefined) throw new Error(`The page has no control named "${name}"`);
    const text = String(value);
    if (kind === 'select') {
      await page.select(`#${name}`, text);
    } else if (kind === 'checkbox' || kind === 'radio') {
      for (const chosen of ([] as string[]).concat(value).filter((v) => v !== '')) {
        const box = controls.find((control) => control.value === chosen);
        if (!box) throw new Error(`The page has no "${name}" ${kind} of value "${chosen}"`);
        await page.click(`#${box.id}`);
      }
    } else if (PICKED.has(kind)) {
      const held = await pick(page, controls[0]!.id, text);
      if (held !== text) throw new Error(`The ${kind} input "${name}" cannot hold "${text}" (it holds "${held}")`);
    } else if (typing === 'replace') {
      await fill(page, name, text);
    } else if (text !== '') {
      await page.type(`#${name}`, text);
    }
  }
}

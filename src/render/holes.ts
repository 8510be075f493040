/**
 * The holes of a cached render (docs/streaming.md §6): the values a page takes from its request —
 * the CSP nonce, the request id, the CSRF token and a form's submission key — are rendered as
 * placeholders, the output is cut at them into a template, and each response fills the template
 * with its own values, escaped for where each hole stands. Pure: no request, no I/O.
 */
import { randomBytes } from 'node:crypto';
import { escapeScriptJson } from '../../protocol/islands.js';

/** The per-request values a render may contain. */
type HoleName = 'nonce' | 'requestId' | 'csrfToken' | 'submissionKey';

/** One response's values for the holes. */
export type HoleValues = Partial<Record<HoleName, string>>;

/** Every hole, in a fixed order. */
const HOLE_NAMES: readonly HoleName[] = ['nonce', 'requestId', 'csrfToken', 'submissionKey'];

/**
 * Where a hole stands, which decides how its value is escaped: in HTML text or an attribute, in
 * JSON inside a `<script>` (island props), in page data's JSON, or in either of the first two
 * inside page data's `html` string.
 */
type HoleContext = 'html' | 'script' | 'data' | 'html-in-data' | 'script-in-data';

/**
 * Per process and random, of letters and digits only: React, JSON and the island props serialiser
 * leave it as it is, and no page content contains it by chance.
 */
const SECRET = randomBytes(12).toString('hex');

/** The placeholder of each hole: the same for every render of this process, so cache keys agree. */
export const PLACEHOLDERS: Readonly<Record<HoleName, string>> = Object.fromEntries(HOLE_NAMES.map((name) => [name, `eilandhole${SECRET}${name}`])) as Record<HoleName, string>;

const FIND = new RegExp(Object.values(PLACEHOLDERS).join('|'), 'g');
const BY_PLACEHOLDER = new Map(HOLE_NAMES.map((name) => [PLACEHOLDERS[name], name]));

/**
 * What a string costs in V8's heap besides its header: one byte a character when every character
 * is Latin-1, else two (one character beyond it makes the whole string two-byte).
 */
export const stringBytes = (text: string): number => (/[^\x00-\xff]/.test(text) ? 2 : 1) * text.length;

/** A rendered response cut at its holes: `parts.length === holes.length + 1`. */
export interface Template {
  parts: string[];
  holes: Array<{ name: HoleName; context: HoleContext }>;
  /** Its size in V8's heap, in bytes, for the cache's bound. */
  bytes: number;
}

/** Whether a position of an HTML text is inside a `<script>` element (JSON props or an inline script). */
function inScript(html: string, at: number): boolean {
  const open = html.lastIndexOf('<script', at);
  return open !== -1 && html.lastIndexOf('</script', at) < open && html.indexOf('>', open) < at;
}

/**
 * Cuts a rendered response at its placeholders.
 * @param output the whole response body, rendered with placeholders
 * @param htmlRange where the HTML is: the whole output for a document; for page data, the range
 *   of the JSON string that holds the rendered `<main>` (everything else is JSON)
 */
export function toTemplate(output: string, htmlRange: readonly [number, number] = [0, output.length]): Template {
  const [from, to] = htmlRange;
  const whole = from === 0 && to === output.length;
  const parts: string[] = [];
  const holes: Template['holes'] = [];
  let last = 0;
  for (const match of output.matchAll(FIND)) {
    const at = match.index;
    const inHtml = at >= from && at < to;
    const inner = inScript(output, at) ? 'script' : 'html';
    const context: HoleContext = whole ? inner : inHtml ? `${inner}-in-data` : 'data';
    parts.push(output.slice(last, at));
    holes.push({ name: BY_PLACEHOLDER.get(match[0])!, context });
    last = at + match[0].length;
  }
  parts.push(output.slice(last));
  // The parts are slices of the output, which they keep whole; each hole is an object of its own.
  return { parts, holes, bytes: stringBytes(output) + 48 * parts.length + 48 * holes.length };
}

/** As React escapes text and attribute values. */
const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };
const htmlEscape = (value: string) => value.replace(/[&<>"']/g, (c) => HTML[c]!);
/** Inside a JSON string of page data (sent as `JSON.stringify` writes it). */
const dataEscape = (value: string) => JSON.stringify(value).slice(1, -1);
/** Inside a JSON string in a `<script>`: JSON's escapes, and those of the island props serialiser. */
const scriptEscape = (value: string) => escapeScriptJson(dataEscape(value));

const ESCAPE: Record<HoleContext, (value: string) => string> = {
  html: htmlEscape,
  script: scriptEscape,
  data: dataEscape,
  'html-in-data': (value) => dataEscape(htmlEscape(value)),
  'script-in-data': (value) => dataEscape(scriptEscape(value)),
};

/**
 * Fills a template with one response's values.
 * @param values a value for every hole the template has
 * @throws TypeError naming a hole without a value
 */
export function fillTemplate(template: Template, values: HoleValues): string {
  let out = template.parts[0]!;
  for (let i = 0; i < template.holes.length; i++) {
    const hole = template.holes[i]!;
    const value = values[hole.name];
    if (value === undefined) throw new TypeError(`No value for the render hole "${hole.name}"`);
    out += ESCAPE[hole.context](value) + template.parts[i + 1]!;
  }
  return out;
}

/**
 * Replaces the placeholders in loader props with one response's values, for a render that is not
 * cached after all (a deferred prop still pending) or the fresh render of the verify guard.
 * Plain objects and arrays are copied; other values (promises among them) are kept as they are.
 */
export function fillProps<P extends object>(props: P, values: HoleValues): P {
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(FIND, (found) => values[BY_PLACEHOLDER.get(found)!] ?? found);
    if (Array.isArray(value)) return value.map(fill);
    if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    }
    return value;
  };
  return fill(props) as P;
}

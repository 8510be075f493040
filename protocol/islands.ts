/**
 * Islands on the wire (docs/islands.md §1–§2): the marker the island view writes around an
 * island's server HTML and the island runtime reads back, and the island's props, plain JSON
 * only, escaped so the `<script type="application/json">` that carries them can never be closed
 * or broken by their content (the runtime reads them back with `JSON.parse`).
 */

/** When the browser hydrates an island (docs/islands.md §2). */
export type HydrationTrigger = 'load' | 'idle' | 'visible' | 'interaction';

/**
 * What starts an `interaction` island's hydration, on or inside its marker: a pointer over it or
 * pressed on it, a touch, focus or a key (a submit of its form starts it too, and is held).
 */
export const INTERACTION_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;

/**
 * The marker's attributes: the island's name, its id in the page, its trigger and chunk URL on
 * the marker element; the props script and the root element as its children; `hydrated`, set
 * by the runtime (`pending`, `true` or `failed`).
 */
export const ISLAND_ATTRIBUTES = {
  name: 'data-island',
  id: 'data-island-id',
  trigger: 'data-trigger',
  src: 'data-src',
  props: 'data-island-props',
  root: 'data-island-root',
  hydrated: 'data-hydrated',
} as const;

/**
 * The `identifierPrefix` of an island root, the same on server and browser (React's `useId`
 * values of two roots never meet).
 * @param id the island's id in the page, e.g. `i1`
 */
export function islandPrefix(id: string): string {
  return `${id}-`;
}

const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

function kindOf(value: unknown): string {
  if (typeof value !== 'object' || value === null) return typeof value;
  return (value as object).constructor?.name ?? 'object without prototype';
}

function assertPlainJson(island: string, value: unknown, path: string): void {
  const fail = (what: string): never => {
    throw new TypeError(`Island "${island}" prop "${path}" is not plain JSON (${what})`);
  };
  if (value === undefined) fail('undefined');
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) fail(String(value));
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => assertPlainJson(island, item, `${path}[${i}]`));
    return;
  }
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) fail(kindOf(value));
    for (const [key, item] of Object.entries(value)) {
      // An absent optional prop: JSON leaves it out, as TypeScript means it.
      if (item !== undefined) assertPlainJson(island, item, path ? `${path}.${key}` : key);
    }
    return;
  }
  fail(kindOf(value));
}

/**
 * Serialises island props for a `<script type="application/json">`.
 * @param island the island's name, for the error message
 * @param props the props: plain objects, arrays, strings, finite numbers, booleans, null
 * @returns JSON with `<`, `>`, `&`, U+2028 and U+2029 written as `\uXXXX` escapes
 * @throws TypeError naming island and prop path, e.g.
 *   `Island "RegistrationForm" prop "user.createdAt" is not plain JSON (Date)`
 */
export function serializeIslandProps(island: string, props: object): string {
  assertPlainJson(island, props, '');
  return escapeScriptJson(JSON.stringify(props));
}

/**
 * Makes JSON text safe inside a `<script>` element.
 * @returns the text with `<`, `>`, `&`, U+2028 and U+2029 written as `\uXXXX` escapes
 */
export function escapeScriptJson(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => ESCAPES[c]!);
}

/**
 * A page's props as the text of its render-cache key (docs/streaming.md §6): JSON of the loader's
 * props with each settled deferred prop as its value. Props the text cannot stand for exactly —
 * a pending or rejected promise, a function, a class instance other than a date — give no key,
 * and the page is rendered as it comes.
 */

import type { TrackedPromise } from './deferred.js';

/** Thrown inside the replacer to stop at the first value without a faithful text. */
const NO_KEY = Symbol('no key');

function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Promise) {
    const tracked = value as TrackedPromise;
    if (tracked.status !== 'fulfilled') throw NO_KEY;
    return { settled: tracked.value };
  }
  if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') throw NO_KEY;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const proto = Object.getPrototypeOf(value) as unknown;
    // A date has already become its ISO text (its toJSON runs first); other instances would lose their class.
    if (proto !== Object.prototype && proto !== null) throw NO_KEY;
  }
  // An `undefined` prop is left out, as it is absent for the view too.
  return value;
}

/**
 * The props' key text.
 * @returns JSON, or undefined when a prop is pending or has no faithful JSON form
 */
export function propsKey(props: object): string | undefined {
  try {
    return JSON.stringify(props, replacer);
  } catch (error) {
    if (error === NO_KEY) return undefined;
    throw error;
  }
}

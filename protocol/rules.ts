/**
 * The JSON rule list the server derives from a DTO's class-validator metadata
 * and the island evaluates (docs/forms.md §5), plus the input
 * transforms both sides apply. Shared: no imports, no Node APIs.
 */

/** A JSON-safe constraint: RegExps travel as `{ regexp, flags }`. */
export type RuleConstraint = null | boolean | number | string | RuleConstraint[] | { [key: string]: RuleConstraint };

/**
 * One rule as a DTO declares it on a field, in DTO order, with the message to show when it fails.
 * The server reads it from class-validator's metadata with its constraints as the DTO gave them
 * (`DeclaredRule<unknown>`); the browser gets them JSON-safe.
 */
export interface DeclaredRule<Constraint = RuleConstraint> {
  /** class-validator rule name, e.g. `minLength`. */
  name: string;
  /** The rule's bounds or options, e.g. `[2]`. */
  constraints: Constraint[];
  /** Applies to each element of an array value. */
  each: boolean;
  /** The message shown when the rule fails: the decorator's own, or else the catalogue's default. */
  message: string;
}

/** A transform applied to a raw form value before the rules run. */
export type InputTransform = 'trim' | 'integer' | 'array';

/** Everything the browser needs to validate one field. */
export interface FieldRules {
  transform: InputTransform | null;
  /** An empty value skips every rule. */
  optional: boolean;
  rules: DeclaredRule[];
}

/** Field name → its rules. */
export type FormRules = Record<string, FieldRules>;

/**
 * Applies an input transform to a raw form value, identically on server and browser.
 * - `trim`: strings trimmed; other values unchanged.
 * - `integer`: '' or absent → undefined (so "required" is judged on the raw value);
 *   a string of at most 15 digits, optionally signed → its number; anything else → NaN.
 * - `array`: absent → []; one value → [value]; an array unchanged.
 * @param kind the transform, or null for none
 * @param value the raw value (string, string array or undefined)
 */
export function applyTransform(kind: InputTransform | null, value: unknown): unknown {
  switch (kind) {
    case 'trim':
      return typeof value === 'string' ? value.trim() : value;
    case 'integer':
      if (value === undefined || value === '') return undefined;
      return typeof value === 'string' && /^[+-]?\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
    case 'array':
      return value === undefined ? [] : Array.isArray(value) ? value : [value];
    default:
      return value;
  }
}

/** Whether a value counts as empty for an optional field (docs/forms.md §1). */
export function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

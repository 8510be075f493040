/**
 * Eiland's own form decorators (docs/forms.md §1), beside class-validator's and the custom
 * rules' (src/forms/custom-rules.ts, e.g. `IsTrimmed`): `Optional` (an empty optional field is not
 * validated further), `Secret`, and the input transforms `Trim`, `ToInteger`, `ToArray`.
 * Transforms and optional fields are recorded so the rule list for the browser
 * can name them; their logic is shared with the browser (`protocol/rules.ts`).
 */
import { Transform } from 'class-transformer';
import { ValidateIf } from 'class-validator';
import { applyTransform, isEmptyValue, type InputTransform } from '../../protocol/rules.js';

/** What is recorded of a field beside its class-validator rules. */
export interface FieldTraits {
  transform: InputTransform | null;
  optional: boolean;
  /** Never shown back: a form rendered again leaves its value out (a password; docs/forms.md §10). */
  secret: boolean;
}

const traits = new Map<Function, Map<string, FieldTraits>>();

function record(target: object, property: string | symbol, change: Partial<FieldTraits>): void {
  const byField = traits.get(target.constructor) ?? new Map<string, FieldTraits>();
  const prior = byField.get(String(property)) ?? { transform: null, optional: false, secret: false };
  byField.set(String(property), { ...prior, ...change });
  traits.set(target.constructor, byField);
}

/**
 * The recorded traits of each field of a DTO class.
 * @returns field name → transform and optionality (fields without any are absent)
 */
export function traitsOf(dto: Function): ReadonlyMap<string, FieldTraits> {
  return traits.get(dto) ?? new Map();
}

function transformDecorator(kind: InputTransform): PropertyDecorator {
  return (target, property) => {
    record(target, property, { transform: kind });
    Transform(({ value }) => applyTransform(kind, value))(target, property);
  };
}

/** Skips every other rule of the field when its value is absent or ''. */
export function Optional(): PropertyDecorator {
  return (target, property) => {
    record(target, property, { optional: true });
    ValidateIf((_object, value: unknown) => !isEmptyValue(value))(target, property);
  };
}

/** Marks a field whose value is never shown back (a password): a form rendered again leaves it out. */
export function Secret(): PropertyDecorator {
  return (target, property) => record(target, property, { secret: true });
}

/** Trims a string before the rules run (non-strings pass unchanged). */
export const Trim = (): PropertyDecorator => transformDecorator('trim');

/** Digits → number, '' → undefined (required judged on the raw value), else NaN. */
export const ToInteger = (): PropertyDecorator => transformDecorator('integer');

/** Makes a checkbox group's value an array: absent → [], one value → [value]. */
export const ToArray = (): PropertyDecorator => transformDecorator('array');

/**
 * Eiland's own form decorators (product.md §4), beside class-validator's:
 * the custom `IsTrimmed` rule, `Optional` (an empty optional field is not
 * validated further), and the input transforms `Trim`, `ToInteger`, `ToArray`.
 * Transforms are recorded so the rule list for the browser can name them.
 */
import { Transform } from 'class-transformer';
import { ValidateBy, ValidateIf, type ValidationOptions } from 'class-validator';

/** Name of the custom trim rule; its default message is in the catalogue. */
export const IS_TRIMMED = 'isTrimmed';

/** A transform applied to a raw form value before the rules run. */
export type InputTransform = 'trim' | 'integer' | 'array';

const transforms = new Map<Function, Map<string, InputTransform>>();

function recordTransform(kind: InputTransform, apply: (value: unknown) => unknown): PropertyDecorator {
  return (target, property) => {
    const byField = transforms.get(target.constructor) ?? new Map<string, InputTransform>();
    byField.set(String(property), kind);
    transforms.set(target.constructor, byField);
    Transform(({ value }) => apply(value))(target, property);
  };
}

/**
 * The input transform of each field of a DTO class.
 * @returns field name → transform, for the fields that have one
 */
export function transformsOf(dto: Function): ReadonlyMap<string, InputTransform> {
  return transforms.get(dto) ?? new Map();
}

/** Fails when the value has leading or trailing white space (product.md §4 "trim"). */
export function IsTrimmed(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: IS_TRIMMED, validator: { validate: (value: unknown) => typeof value === 'string' && value === value.trim() } },
    options,
  );
}

/** Skips every other rule of the field when its value is absent or ''. */
export function Optional(): PropertyDecorator {
  return ValidateIf((_object, value: unknown) => value !== undefined && value !== null && value !== '');
}

/** Trims a string before the rules run (non-strings pass unchanged). */
export function Trim(): PropertyDecorator {
  return recordTransform('trim', (value) => (typeof value === 'string' ? value.trim() : value));
}

/**
 * Turns a string of digits (optionally signed) into a number; '' into
 * undefined, so "required" is judged on the raw value; anything else into NaN.
 */
export function ToInteger(): PropertyDecorator {
  return recordTransform('integer', (value) => {
    if (value === undefined || value === '') return undefined;
    return typeof value === 'string' && /^[+-]?\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  });
}

/** Makes a checkbox group's value an array: absent → [], one value → [value]. */
export function ToArray(): PropertyDecorator {
  return recordTransform('array', (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]));
}

/**
 * The island's validation (docs/forms.md §5): evaluates the
 * rule list the server derived from the DTO, with per-function validator.js
 * imports — the same functions class-validator calls on the server.
 */
import isEmail from 'validator/es/lib/isEmail.js';
import isLength from 'validator/es/lib/isLength.js';
import isLowercase from 'validator/es/lib/isLowercase.js';
import isUppercase from 'validator/es/lib/isUppercase.js';
import isURL from 'validator/es/lib/isURL.js';
import isUUID from 'validator/es/lib/isUUID.js';
import matches from 'validator/es/lib/matches.js';
import { applyTransform, isEmptyValue, type BrowserRule, type FieldRules, type FormRules, type RuleConstraint } from '../../protocol/rules.js';

type Check = (value: unknown, c: RuleConstraint[]) => boolean;

const str = (v: unknown): v is string => typeof v === 'string';
const num = (v: unknown): v is number => typeof v === 'number';
// validator.js takes its own option types; the server sent exactly those.
const opts = <T,>(c: RuleConstraint | undefined) => (c ?? undefined) as unknown as T;

/** Each check mirrors class-validator 0.15's function of the same name. */
const CHECKS: Record<string, Check> = {
  isNotEmpty: (v) => v !== '' && v !== null && v !== undefined,
  isDefined: (v) => v !== undefined && v !== null,
  isEmail: (v, c) => str(v) && isEmail(v, opts(c[0])),
  isUrl: (v, c) => str(v) && isURL(v, opts(c[0])),
  isUuid: (v, c) => str(v) && isUUID(v, opts(c[0])),
  isTrimmed: (v) => str(v) && v === v.trim(),
  isLowercase: (v) => str(v) && isLowercase(v),
  isUppercase: (v) => str(v) && isUppercase(v),
  minLength: (v, c) => str(v) && isLength(v, { min: c[0] as number }),
  maxLength: (v, c) => str(v) && isLength(v, { min: 0, max: c[0] as number }),
  isLength: (v, c) => str(v) && isLength(v, { min: c[0] as number, max: (c[1] ?? undefined) as number | undefined }),
  matches: (v, c) => {
    const p = c[0] as { regexp: string; flags: string } | string;
    return str(v) && (typeof p === 'string' ? matches(v, p, (c[1] ?? undefined) as string | undefined) : matches(v, new RegExp(p.regexp, p.flags)));
  },
  arrayMinSize: (v, c) => Array.isArray(v) && v.length >= (c[0] as number),
  arrayMaxSize: (v, c) => Array.isArray(v) && v.length <= (c[0] as number),
  isIn: (v, c) => Array.isArray(c[0]) && c[0].some((p) => p === v),
  isInt: (v) => num(v) && Number.isInteger(v),
  min: (v, c) => num(v) && num(c[0]) && v >= c[0],
  max: (v, c) => num(v) && num(c[0]) && v <= c[0],
};

function passes(rule: BrowserRule, value: unknown): boolean {
  const check = CHECKS[rule.name];
  if (!check) return true; // the server refuses to send rules missing here
  if (rule.each && Array.isArray(value)) return value.every((item) => check(item, rule.constraints));
  return check(value, rule.constraints);
}

/**
 * The message of a field's first failing rule, or undefined when valid.
 * @param field the field's rules
 * @param raw the submitted value: a string, a string array (checkbox group) or undefined
 */
export function validateField(field: FieldRules, raw: unknown): string | undefined {
  const value = applyTransform(field.transform, raw);
  if (field.optional && isEmptyValue(value)) return undefined;
  return field.rules.find((rule) => !passes(rule, value))?.message;
}

/**
 * Validates every field of a form.
 * @param rules the form's rule list
 * @param values raw values by field name
 * @returns field → message, for the failing fields only
 */
export function validateValues(rules: FormRules, values: Record<string, unknown>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [name, field] of Object.entries(rules)) {
    const message = validateField(field, values[name]);
    if (message !== undefined) errors[name] = message;
  }
  return errors;
}

/**
 * The island's validation (docs/forms.md §5): evaluates the rule list the server derived from the
 * DTO with the check of each rule's module in islands/lib/rules/ (the same validator.js functions
 * class-validator calls on the server). Only the checks are imported: the modules' messages and
 * server decorators stay out of the browser.
 */
import { applyTransform, isEmptyValue, type BrowserRule, type FieldRules, type FormRules } from '../../protocol/rules.js';
import { check as arrayMaxSize } from './rules/arrayMaxSize.js';
import { check as arrayMinSize } from './rules/arrayMinSize.js';
import { check as isDefined } from './rules/isDefined.js';
import { check as isEmail } from './rules/isEmail.js';
import { check as isIn } from './rules/isIn.js';
import { check as isInt } from './rules/isInt.js';
import { check as isLength } from './rules/isLength.js';
import { check as isLowercase } from './rules/isLowercase.js';
import { check as isNotEmpty } from './rules/isNotEmpty.js';
import { check as isTrimmed } from './rules/isTrimmed.js';
import { check as isUppercase } from './rules/isUppercase.js';
import { check as isUrl } from './rules/isUrl.js';
import { check as isUuid } from './rules/isUuid.js';
import { check as matches } from './rules/matches.js';
import { check as max } from './rules/max.js';
import { check as maxLength } from './rules/maxLength.js';
import { check as min } from './rules/min.js';
import { check as minLength } from './rules/minLength.js';
import type { Rule } from './rules/rule.js';

/** Rule name → its check. */
const CHECKS: Readonly<Record<string, Rule['check']>> = { arrayMaxSize, arrayMinSize, isDefined, isEmail, isIn, isInt, isLength, isLowercase, isNotEmpty, isTrimmed, isUppercase, isUrl, isUuid, matches, max, maxLength, min, minLength };

function passes(rule: BrowserRule, value: unknown): boolean {
  const check = CHECKS[rule.name];
  if (!check) return true; // the server refuses to send a rule without a module here
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

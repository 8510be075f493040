/**
 * The island's validation (docs/forms.md §5): evaluates the rule list the server derived from the
 * DTO with the check of each rule's module in islands/lib/rules/ (the same validator.js functions
 * class-validator calls on the server). It imports no check itself: a form island's entry
 * registers the checks of the rules its list names (build/form-islands.mjs), so an island carries
 * no other check, and no rule module's message reaches the browser.
 */
import { applyTransform, isEmptyValue, type DeclaredRule, type FieldRules, type FormRules } from '../../protocol/rules.js';
import type { RuleDefinition } from './rules/rule.js';

/** Rule name → its check, for the rules of the form islands loaded so far. */
const CHECKS = new Map<string, RuleDefinition['check']>();

/**
 * Registers checks by rule name (called by a form island's entry module, before it hydrates).
 * @param checks rule name → its module's check
 */
export function registerChecks(checks: Readonly<Record<string, RuleDefinition['check']>>): void {
  for (const [name, check] of Object.entries(checks)) CHECKS.set(name, check);
}

function passes(rule: DeclaredRule, value: unknown): boolean {
  const check = CHECKS.get(rule.name);
  if (!check) throw new Error(`No check registered for rule "${rule.name}"`); // the build registers one for each rule of a list
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

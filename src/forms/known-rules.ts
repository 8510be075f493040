/**
 * The rules the form layer knows, by name (docs/forms.md §10): those of islands/lib/rules/, and
 * each custom rule a form brings of its own, known from the moment its decorator is made
 * (`decoratorOf`, src/forms/custom-rules.ts). A form's browser rule list admits only these
 * (src/forms/browser-rules.ts), and validation gives their default messages.
 */
import { RULES } from '../../islands/lib/rules/index.js';
import type { RuleDefinition } from '../../islands/lib/rules/rule.js';
import { MESSAGES } from '../../protocol/messages.js';

/** The custom rules forms brought of their own, by name. */
const OWN = new Map<string, RuleDefinition>();

/**
 * Makes a rule known by its name (a form's own custom rule; one of islands/lib/rules/ already is).
 * @param rule the rule's module: its name, check and default message
 * @throws TypeError when another rule already has that name
 */
export function knowRule(rule: RuleDefinition): void {
  const known = ruleNamed(rule.name);
  if (known === undefined) OWN.set(rule.name, rule);
  else if (known.check !== rule.check) throw new TypeError(`Two rules are named "${rule.name}": a rule's name is its module's, and one module has it`);
}

/**
 * The rule of a name, if the form layer knows one.
 * @param name class-validator's name of the rule, e.g. `minLength`
 */
export function ruleNamed(name: string): RuleDefinition | undefined {
  return RULES[name] ?? OWN.get(name);
}

/**
 * The default message of a rule (docs/forms.md §1).
 * @param rule the rule's name, e.g. `minLength`
 * @param constraints its bounds, e.g. `[2]` for `MinLength(2)`
 * @returns the rule's message with the bounds filled in; "Invoer is niet geldig" for a rule the
 *   form layer does not know
 */
export function defaultMessage(rule: string, constraints: readonly unknown[] = []): string {
  return ruleNamed(rule)?.message(constraints) ?? MESSAGES.invalid;
}

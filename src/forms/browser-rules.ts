/**
 * Serialises a DTO's class-validator metadata into the JSON rule list the
 * island evaluates (docs/forms.md §5): one rule list, derived, never written twice.
 */
import type { FormRules, RuleConstraint } from '../../protocol/rules.js';
import { ruleNamed } from './known-rules.js';
import { traitsOf } from './rules.js';
import { rulesOf } from './validate.js';

function toJson(value: unknown, where: string): RuleConstraint {
  if (value === undefined || value === null) return null;
  if (value instanceof RegExp) return { regexp: value.source, flags: value.flags };
  if (Array.isArray(value)) return value.map((v, i) => toJson(v, `${where}[${i}]`));
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJson(v, `${where}.${k}`)]));
  }
  if (['string', 'number', 'boolean'].includes(typeof value)) return value as RuleConstraint;
  throw new TypeError(`Rule constraint ${where} cannot travel as JSON (${typeof value})`);
}

const cache = new Map<Function, FormRules>();

/**
 * The rule list of a DTO class for the browser.
 * @param dto a class decorated with class-validator rules and Eiland's traits
 * @returns field name → transform, optionality and rules in DTO order
 * @throws TypeError when a rule is one the island cannot evaluate, naming field and rule
 */
export function browserRules(dto: Function): FormRules {
  const cached = cache.get(dto);
  if (cached) return cached;
  const traits = traitsOf(dto);
  const out: FormRules = {};
  for (const [field, rules] of rulesOf(dto)) {
    for (const rule of rules) {
      // The browser can evaluate a rule of islands/lib/rules/ or a form's own, no other.
      if (!ruleNamed(rule.name)) throw new TypeError(`Field "${field}" uses rule "${rule.name}", which the browser cannot evaluate`);
    }
    out[field] = {
      transform: traits.get(field)?.transform ?? null,
      optional: traits.get(field)?.optional ?? false,
      rules: rules.map((r) => ({ ...r, constraints: r.constraints.map((c, i) => toJson(c, `${field}.${r.name}[${i}]`)) })),
    };
  }
  cache.set(dto, out);
  return out;
}

/**
 * Validation of a form DTO (docs/forms.md §1): class-transformer applies the
 * input transforms, class-validator runs the rules, and each field reports one
 * message — that of its first failing rule in the order written in the DTO,
 * the decorator's own message or else the catalogue's default.
 */
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { getMetadataStorage, validate, type ValidationError } from 'class-validator';
import type { DeclaredRule } from '../../protocol/rules.js';
import { defaultMessage } from './known-rules.js';

/** The outcome of {@link validateForm}. */
type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: Record<string, string> };

const rulesCache = new Map<Function, Map<string, DeclaredRule<unknown>[]>>();

/**
 * The rules of every field of a DTO class, each field's list in the order the
 * decorators are written (class-validator stores them bottom-up).
 * @param dto a class decorated with class-validator rules
 * @returns field name → rules (conditional `Optional` is not a rule)
 */
export function rulesOf(dto: Function): Map<string, DeclaredRule<unknown>[]> {
  const cached = rulesCache.get(dto);
  if (cached) return cached;
  const byField = new Map<string, DeclaredRule<unknown>[]>();
  for (const meta of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) {
    if (meta.type !== 'customValidation' || meta.name === undefined) continue;
    const rule: DeclaredRule<unknown> = {
      name: meta.name,
      constraints: meta.constraints ?? [],
      each: meta.each === true,
      message: typeof meta.message === 'string' ? meta.message : defaultMessage(meta.name, meta.constraints ?? []),
    };
    byField.set(meta.propertyName, [rule, ...(byField.get(meta.propertyName) ?? [])]);
  }
  rulesCache.set(dto, byField);
  return byField;
}

function firstMessage(error: ValidationError, rules: DeclaredRule<unknown>[]): string {
  const failed = new Set(Object.keys(error.constraints ?? {}));
  return rules.find((rule) => failed.has(rule.name))?.message ?? defaultMessage('');
}

/**
 * Transforms and validates submitted values.
 * @param dto the DTO class
 * @param values raw values by field name (strings, or string arrays for groups)
 * @returns the typed instance, or one message per failing field
 */
export async function validateForm<T extends object>(dto: ClassConstructor<T>, values: Record<string, unknown>): Promise<ValidationResult<T>> {
  const instance = plainToInstance(dto, values);
  const errors = await validate(instance, { forbidUnknownValues: true });
  if (errors.length === 0) return { ok: true, value: instance };
  const rules = rulesOf(dto);
  return { ok: false, errors: Object.fromEntries(errors.map((e) => [e.property, firstMessage(e, rules.get(e.property) ?? [])])) };
}

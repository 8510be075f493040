/**
 * A validation rule of the form layer (docs/forms.md §5, §10), defined in one module of this
 * folder, named by the rule: it exports the rule's class-validator `name`, its `check` as the
 * browser runs it (the same validator.js function class-validator calls on the server), and its
 * default `message`. This is the part both sides share, so it imports no server code: a class-validator
 * rule's decorator is class-validator's own, a custom rule's is made from its module on the server
 * (src/forms/custom-rules.ts). The browser imports the checks alone (islands/lib/validate.ts): no
 * message function reaches it.
 */
import type { RuleConstraint } from '../../../protocol/rules.js';

/** A rule's definition: what its module exports. */
export interface RuleDefinition {
  /** class-validator's name of the rule (a custom rule's own), e.g. `minLength`. */
  readonly name: string;
  /**
   * Whether a value passes.
   * @param value the field's value after its transform (a string, a number, an array or undefined)
   * @param constraints the rule's bounds or options as the DTO gave them (JSON-safe)
   */
  check(value: unknown, constraints: readonly RuleConstraint[]): boolean;
  /**
   * The default message (docs/forms.md §1), with the bounds filled in.
   * @param constraints the rule's bounds, e.g. `[2]` for `MinLength(2)`
   */
  message(constraints: readonly unknown[]): string;
}

/**
 * The server decorators of the custom rules (docs/forms.md §1, §10). A rule's shared part (its
 * name, check and message) is its module, which the browser imports too: in islands/lib/rules/,
 * or beside the form that brings it. Its decorator is made on the server's side, because it needs
 * class-validator: class-validator then runs the module's own check under the rule's name, so
 * server and browser judge a value with the same function. A rule of class-validator's own needs
 * none: a DTO uses class-validator's.
 */
import { ValidateBy, type ValidationOptions } from 'class-validator';
import * as isMailbox from '../../islands/lib/rules/isMailbox.js';
import * as isTrimmed from '../../islands/lib/rules/isTrimmed.js';
import * as isWebsite from '../../islands/lib/rules/isWebsite.js';
import type { RuleDefinition } from '../../islands/lib/rules/rule.js';
import type { RuleConstraint } from '../../protocol/rules.js';
import { knowRule } from './known-rules.js';

/**
 * The server decorator of a custom rule, made from its module; the rule is known from then on (a
 * form's own rule joins those of islands/lib/rules/: src/forms/known-rules.ts).
 * @param rule the rule's module (its name, check and default message)
 * @returns a decorator factory taking the rule's constraints and class-validator's options
 * @throws TypeError when another rule has the rule's name
 * @example export const IsTrimmed = (): PropertyDecorator => decoratorOf(isTrimmed)();
 */
export function decoratorOf(rule: RuleDefinition): (constraints?: RuleConstraint[], options?: ValidationOptions) => PropertyDecorator {
  knowRule(rule);
  return (constraints = [], options) =>
    ValidateBy({ name: rule.name, constraints, validator: { validate: (value, args) => rule.check(value, (args?.constraints ?? []) as RuleConstraint[]) } }, options);
}

/** Fails unless the value is one plain mailbox address (the rule `isMailbox`). */
export const IsMailbox = (): PropertyDecorator => decoratorOf(isMailbox)();

/** Fails when the value has leading or trailing white space (the rule `isTrimmed`). */
export const IsTrimmed = (): PropertyDecorator => decoratorOf(isTrimmed)();

/** Fails unless the value is an absolute http or https URL (the rule `isWebsite`). */
export const IsWebsite = (): PropertyDecorator => decoratorOf(isWebsite)();

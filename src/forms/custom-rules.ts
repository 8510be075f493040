/**
 * The server decorators of the custom rules (docs/forms.md §1, §10). A rule's shared part (its
 * name, check and message) is its module in islands/lib/rules/, which the browser imports too; its
 * decorator is made here, on the server's side, because it needs class-validator: class-validator
 * then runs the module's own check under the rule's name, so server and browser judge a value with
 * the same function. A rule of class-validator's own needs none: a DTO uses class-validator's.
 */
import { ValidateBy, type ValidationOptions } from 'class-validator';
import * as isMailbox from '../../islands/lib/rules/isMailbox.js';
import * as isTrimmed from '../../islands/lib/rules/isTrimmed.js';
import * as isWebsite from '../../islands/lib/rules/isWebsite.js';
import type { RuleDefinition } from '../../islands/lib/rules/rule.js';
import type { RuleConstraint } from '../../protocol/rules.js';

/**
 * The server decorator of a custom rule, made from its module.
 * @param rule the rule's module (its name and check)
 * @returns a decorator factory taking the rule's constraints and class-validator's options
 * @example export const IsTrimmed = (): PropertyDecorator => decoratorOf(isTrimmed)();
 */
export function decoratorOf(rule: Pick<RuleDefinition, 'name' | 'check'>): (constraints?: RuleConstraint[], options?: ValidationOptions) => PropertyDecorator {
  return (constraints = [], options) =>
    ValidateBy({ name: rule.name, constraints, validator: { validate: (value, args) => rule.check(value, (args?.constraints ?? []) as RuleConstraint[]) } }, options);
}

/** Fails unless the value is one plain mailbox address (the rule `isMailbox`). */
export const IsMailbox = (): PropertyDecorator => decoratorOf(isMailbox)();

/** Fails when the value has leading or trailing white space (the rule `isTrimmed`). */
export const IsTrimmed = (): PropertyDecorator => decoratorOf(isTrimmed)();

/** Fails unless the value is an absolute http or https URL (the rule `isWebsite`). */
export const IsWebsite = (): PropertyDecorator => decoratorOf(isWebsite)();

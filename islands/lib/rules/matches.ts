/**
 * The rule `matches` (docs/forms.md §1, §5): class-validator's `Matches(pattern)` (validator.js `matches`: a string pattern made a RegExp with the given flags); a RegExp travels as `{ regexp, flags }`.
 */
import { MESSAGES } from '../../../protocol/messages.js';
import type { RuleDefinition } from './rule.js';

export const name = 'matches';

export const check: RuleDefinition['check'] = (v, c) => {
  const p = c[0] as { regexp: string; flags: string } | string;
  return typeof v === 'string' && !!v.match(typeof p === 'string' ? new RegExp(p, (c[1] ?? undefined) as string | undefined) : new RegExp(p.regexp, p.flags));
};

export const message: RuleDefinition['message'] = () => MESSAGES.pattern;

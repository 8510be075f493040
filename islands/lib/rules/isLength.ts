/**
 * The rule `isLength` (docs/forms.md §1, §5): class-validator's `Length(min, max)` (validator.js `isLength`; islands/lib/validator.ts).
 */
import { characters } from '../validator.js';
import { MESSAGES } from '../../../protocol/messages.js';
import type { RuleDefinition } from './rule.js';

export const name = 'isLength';

export const check: RuleDefinition['check'] = (v, c) => {
  if (typeof v !== 'string') return false;
  const n = characters(v);
  return n >= ((c[0] as number) || 0) && (c[1] == null || n <= (c[1] as number));
};

export const message: RuleDefinition['message'] = ([n, m]) => (n === m ? `must be exactly ${String(n)} characters` : MESSAGES.invalid);

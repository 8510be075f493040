/**
 * The rule `isUuid` (docs/forms.md §1, §5): class-validator's `IsUUID` (validator.js `isUUID` with
 * the DTO's version: its table of patterns, the eight versions' built from one;
 * test/validator-ports.test.ts holds it to validator.js).
 */
import { MESSAGES } from '../../../protocol/messages.js';
import type { RuleDefinition } from './rule.js';

export const name = 'isUuid';

/** validator.js's pattern of each version; `all` when the DTO names none. */
const UUID: Record<string, RegExp> = {
  nil: /^00000000-0000-0000-0000-000000000000$/i,
  max: /^ffffffff-ffff-ffff-ffff-ffffffffffff$/i,
  loose: /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/i,
  all: /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/i,
};
for (let version = 1; version <= 8; version++) UUID[version] = new RegExp(`^[0-9A-F]{8}-[0-9A-F]{4}-${version}[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$`, 'i');

export const check: RuleDefinition['check'] = (v, c) => {
  const version = (c[0] ?? 'all') as string;
  return typeof v === 'string' && version in UUID && UUID[version]!.test(v);
};

export const message: RuleDefinition['message'] = () => MESSAGES.uuid;

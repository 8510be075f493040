/**
 * The test form's own custom rule (docs/forms.md §10): a day of the calendar from Monday to
 * Friday, written `YYYY-MM-DD` as a date input sends it. It lives beside the form's island, not in
 * islands/lib/rules/: the server knows it once the form's DTO makes its decorator
 * (test/fixtures/appointment.ts), and the build finds its module by the rule's name.
 */
import type { RuleDefinition } from '../../../islands/lib/rules/rule.js';

export const name = 'isWeekday';

export const check: RuleDefinition['check'] = (v) => {
  const parts = typeof v === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(v) : null;
  if (!parts) return false;
  const [year, month, day] = parts.slice(1).map(Number) as [number, number, number];
  // UTC: the day of the week of a date, wherever the server or the browser is.
  const date = new Date(Date.UTC(year, month - 1, day));
  const weekday = date.getUTCDay();
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day && weekday >= 1 && weekday <= 5;
};

export const message: RuleDefinition['message'] = () => 'Kies een werkdag: maandag tot en met vrijdag';

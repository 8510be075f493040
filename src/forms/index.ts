/**
 * Every form of the site (docs/forms.md §8): the build derives each one's browser rule list from
 * its DTO and embeds it in its island's chunk, and the tests check each one's server and browser
 * validation against each other; what a form keeps declares its table, its e-mail and its
 * retention, from which the outbox's letters and the retention's cut-offs follow. A form not listed
 * here has no rule list in the browser, sends no e-mail and is never expired.
 */
import type { Letter } from '../mail/compose.js';
import type { OutboxMessage, Storage } from '../storage/types.js';
import { contactForm } from './contact.js';
import type { FormDefinition } from './define.js';
import { records } from './keep.js';
import { registrationForm } from './registration.js';

/** The forms, by name. */
export const FORMS: readonly FormDefinition[] = [registrationForm, contactForm];

/** The forms that keep their submissions, with their keeping. */
const KEEPING = FORMS.flatMap((form) => (form.keep ? [{ name: form.name, keep: form.keep }] : []));

/**
 * The letter of an outbox message (docs/operations.md §12): the form its kind names writes it from
 * the row it is about.
 * @param origin the site's origin for links, e.g. `https://eiland.example`
 * @returns letter(message): the letter, or undefined when the row is gone
 * @throws (the letter) Error when no form sends messages of the message's kind
 */
export function letters(storage: Storage, origin: string): (message: OutboxMessage) => Promise<Letter | undefined> {
  const byKind = new Map(KEEPING.filter(({ keep }) => keep.mail).map(({ name, keep }) => [name, keep]));
  return async (message) => {
    const keep = byKind.get(message.kind);
    if (keep === undefined) throw new Error(`No form sends e-mails of kind "${message.kind}"`);
    const row = await records(storage, keep).find(message.about);
    return row && { to: String((row as Record<string, unknown>).email), ...keep.mail!(row, origin) };
  };
}

/**
 * What the retention job deletes (docs/operations.md §11): each keeping form's table, kept its own
 * days or `RETENTION_DAYS`.
 * @param days `RETENTION_DAYS`
 */
export function retained(days: number): Array<{ table: string; days: number }> {
  return KEEPING.map(({ keep }) => ({ table: keep.table, days: keep.days ?? days }));
}

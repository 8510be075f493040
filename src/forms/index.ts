/**
 * Every form of the site (docs/forms.md §8): from each one's definition follow its pages and its
 * post (src/forms/route.tsx), its browser rule list in its island's chunk (the build), its table's
 * migration, its e-mail and its retention; the tests check each one's server and browser
 * validation against each other. A form not listed here has none of these. The app, the storage,
 * the sender and the retention take the forms as a parameter, these by default (the tests add a
 * form of their own: test/fixtures/forms.ts).
 */
import { formAdmins } from '../beheer/form-admin.js';
import { beheerLetters } from '../beheer/letters.js';
import type { Letter } from '../mail/compose.js';
import type { FormMigrations } from '../storage/index.js';
import type { OutboxMessage, Storage } from '../storage/types.js';
import { contactForm } from './contact.js';
import type { FormDefinition } from './define.js';
import { records } from './keep.js';
import { registrationForm } from './registration.js';

/** The forms, in the order of their pages' routes. */
export const FORMS: readonly FormDefinition[] = [registrationForm, contactForm];

/** The forms that keep their submissions, with their keeping. */
const keepingOf = (forms: readonly FormDefinition[]) => forms.flatMap((form) => (form.keep ? [{ name: form.name, keep: form.keep }] : []));

/**
 * The letter of an outbox message (docs/operations.md §12): the form its kind names writes it from
 * the row it is about.
 * @param origin the site's origin for links, e.g. `https://eiland.example`
 * @param forms the site's forms
 * @param beheer `NOTIFY_TO`'s mailboxes and the site's secret, for beheer's e-mails (docs/beheer.md §1, §5)
 * @returns letter(message): the letter, or undefined when the row is gone
 * @throws (the letter) Error when no form sends messages of the message's kind
 */
export function letters(storage: Storage, origin: string, forms: readonly FormDefinition[] = FORMS, beheer: { notifyTo?: readonly string[]; secret?: string } = {}): (message: OutboxMessage) => Promise<Letter | undefined> {
  const notification = beheerLetters(storage, origin, { notifyTo: beheer.notifyTo ?? [], secret: beheer.secret ?? '', admins: formAdmins(forms) });
  const byKind = new Map(
    keepingOf(forms)
      .filter(({ keep }) => keep.mail)
      .map(({ name, keep }) => [name, keep]),
  );
  return async (message) => {
    const notified = notification(message);
    if (notified) return notified;
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
 * @param forms the site's forms
 */
export function retained(days: number, forms: readonly FormDefinition[] = FORMS): Array<{ table: string; days: number }> {
  return keepingOf(forms).map(({ keep }) => ({ table: keep.table, days: keep.days ?? days }));
}

/**
 * The migrations of the forms that make their own tables (docs/forms.md §8), by name, for the
 * storage to apply with its list.
 * @param forms the site's forms
 */
export function formMigrations(forms: readonly FormDefinition[] = FORMS): FormMigrations {
  return Object.fromEntries(keepingOf(forms).flatMap(({ keep }) => (keep.migrates ? [[keep.migrates.name, keep.migrates.up]] : [])));
}

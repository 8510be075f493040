/**
 * The organisation's notifications (docs/beheer.md §5): for each new submission of a form that
 * notifies, an e-mail to `NOTIFY_TO` with what was sent, `Reply-To` the sender, and the link to it
 * in beheer; and the summary of those not sent past 30 in an hour.
 */
import { SIGNATURE, type Letter } from '../mail/compose.js';
import { notifyKind, SUMMARY_KIND } from '../storage/notify.js';
import type { OutboxMessage, Storage } from '../storage/types.js';
import type { FormAdmin } from './form-admin.js';
import { BEHEER } from './route.js';

/** A kept value as the e-mail shows it: a list joined, a choice by its label. */
function shown(admin: FormAdmin, name: string, value: unknown): string {
  const field = admin.fields.find((f) => f.name === name)!;
  const one = (item: unknown) => field.choices?.[String(item)] ?? String(item);
  return value === null || value === undefined ? '' : Array.isArray(value) ? value.map(one).join(', ') : one(value);
}

/**
 * The letters of the notifications and their summary.
 * @param notifyTo `NOTIFY_TO`'s mailboxes
 * @param admins the forms as beheer shows them
 * @returns letter(message): the letter of a notification or a summary, undefined when its row is
 *   gone; or undefined for a message of another kind
 */
export function notificationLetters(storage: Storage, origin: string, notifyTo: readonly string[], admins: readonly FormAdmin[]): (message: OutboxMessage) => Promise<Letter | undefined> | undefined {
  const byKind = new Map(admins.filter((admin) => admin.notify).map((admin) => [notifyKind(admin.name), admin]));
  return (message) => {
    if (message.kind === SUMMARY_KIND) {
      return storage.staff.suppressedNotifications(message.about).then((count) => ({
        to: notifyTo,
        subject: `${count} meldingen niet verstuurd`,
        paragraphs: [`In het afgelopen uur kwamen er meer dan 30 inzendingen binnen. Van ${count} daarvan kreeg je geen melding. Je vindt ze allemaal in beheer:`, { href: `${origin}${BEHEER}` }, SIGNATURE],
      }));
    }
    const admin = byKind.get(message.kind);
    if (admin === undefined) return undefined;
    return storage.find(admin.keep.table, message.about).then((row) => {
      if (row === undefined) return undefined;
      const values = admin.keep.read(row) as Record<string, unknown>;
      const category = admin.filters[0];
      const email = typeof values.email === 'string' ? values.email : undefined;
      return {
        to: notifyTo,
        ...(email && { replyTo: email }),
        subject: `Nieuw via ${admin.title}${category ? `: ${shown(admin, category.name, values[category.name])}` : ''}`,
        paragraphs: [
          `Er is een nieuwe inzending via het formulier ${admin.title}.${email ? ' Met Beantwoorden antwoord je de afzender.' : ''}`,
          ...admin.fields.map((field) => `${field.label}:\n${shown(admin, field.name, values[field.name])}`),
          'In beheer:',
          { href: `${origin}${BEHEER}/${admin.name}/${row.id}` },
          SIGNATURE,
        ],
      };
    });
  };
}

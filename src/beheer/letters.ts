/**
 * Beheer's e-mails in the outbox: a password link to its account (docs/beheer.md §1), and the
 * organisation’s notifications (docs/beheer.md §5): for each new submission of a form that notifies, an e-mail to
 * `NOTIFY_TO` with what was sent, `Reply-To` the sender, and the link to it in beheer; and the
 * summary of those not sent past 30 in an hour.
 */
import { SIGNATURE, type Letter } from '../mail/compose.js';
import { notifyKind, SUMMARY_KIND } from '../storage/notify.js';
import { LINK_KIND } from '../storage/staff.js';
import type { OutboxMessage, Storage } from '../storage/types.js';
import { valueText, type FormAdmin } from './form-admin.js';
import { BEHEER } from './route.js';
import { unseal } from './seal.js';

/** What beheer's letters need besides the storage and the origin. */
export interface BeheerMail {
  /** `NOTIFY_TO`'s mailboxes (none: no notification is enqueued). */
  notifyTo: readonly string[];
  /** The site's secret, which sealed the links' tokens. */
  secret: string;
  /** The forms as beheer shows them. */
  admins: readonly FormAdmin[];
}

/**
 * The letters of beheer's e-mails.
 * @returns letter(message): the letter of a link, a notification or a summary, undefined when what
 *   it is about is gone; or undefined for a message of another kind
 */
export function beheerLetters(storage: Storage, origin: string, { notifyTo, secret, admins }: BeheerMail): (message: OutboxMessage) => Promise<Letter | undefined> | undefined {
  const byKind = new Map(admins.filter((admin) => admin.notify).map((admin) => [notifyKind(admin.name), admin]));
  return (message) => {
    if (message.kind === LINK_KIND) {
      return storage.staff.linkMail(message.about, Date.now()).then(
        (link) =>
          link && {
            to: link.email,
            subject: 'Je link voor beheer bij Eiland',
            paragraphs: [
              'Hallo,',
              'Met deze link kies je een wachtwoord voor beheer bij Eiland. De link werkt 24 uur en één keer:',
              { href: `${origin}${BEHEER}/wachtwoord/${unseal(secret, link.sealed)}` },
              'Heb je hier niet om gevraagd? Dan kun je deze e-mail negeren.',
              SIGNATURE,
            ],
          },
      );
    }
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
        subject: `Nieuw via ${admin.title}${category ? `: ${valueText(category, values[category.name])}` : ''}`,
        paragraphs: [
          `Er is een nieuwe inzending via het formulier ${admin.title}.${email ? ' Met Beantwoorden antwoord je de afzender.' : ''}`,
          ...admin.fields.map((field) => `${field.label}:\n${valueText(field, values[field.name])}`),
          'In beheer:',
          { href: `${origin}${BEHEER}/${admin.name}/${row.id}` },
          SIGNATURE,
        ],
      };
    });
  };
}

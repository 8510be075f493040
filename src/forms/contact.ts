/**
 * The contact form (docs/forms.md §9): its DTO, every field with its rules in the listed order,
 * top to bottom. Messages come from the catalogue (`protocol/messages.ts`).
 */
import { IsIn, IsNotEmpty, MaxLength, MinLength } from 'class-validator';
import ContactForm, { FIELDS } from '../../islands/ContactForm.js';
import { SUBJECTS } from '../../protocol/contact.js';
import { ContactBedankt } from '../../views/pages/ContactBedankt.js';
import { greeting, SIGNATURE, type MailContent } from '../mail/compose.js';
import type { Storage } from '../storage/types.js';
import { IsMailbox } from './custom-rules.js';
import { defineForm } from './define.js';
import { records, type Records, type Stored } from './keep.js';
import { Trim } from './rules.js';

/** A contact message as the form submits it, after its transforms. */
export class ContactDto {
  @Trim()
  @IsNotEmpty()
  @MinLength(2)
  @MaxLength(60)
  naam!: string;

  @Trim()
  @IsNotEmpty()
  @IsMailbox()
  email!: string;

  @IsNotEmpty()
  @IsIn(Object.keys(SUBJECTS))
  onderwerp!: string;

  @Trim()
  @IsNotEmpty()
  @MinLength(10)
  @MaxLength(2000)
  bericht!: string;
}

/** The contact message's receipt: that it came, not what it said (docs/operations.md §12). */
function receipt(message: { naam: string }): MailContent {
  return {
    subject: 'We hebben je bericht ontvangen',
    paragraphs: [greeting(message.naam), 'Bedankt voor je bericht aan Eiland. We hebben het ontvangen en antwoorden op dit e-mailadres.', SIGNATURE],
  };
}

/** The contact form: it keeps the message and its sender, and mails a receipt (docs/forms.md §9). */
export const contactForm = defineForm({
  name: 'contact',
  path: '/contact',
  island: 'ContactForm',
  dto: ContactDto,
  pages: {
    title: 'Contact',
    description: 'Stuur Eiland een vraag, een klacht of een compliment. Het formulier werkt ook zonder JavaScript.',
    island: ContactForm,
    thankYou: { path: '/contact/bedankt', title: 'Bedankt voor je bericht', description: 'Je bericht aan Eiland is ontvangen.', View: ContactBedankt },
    // The subject is a category, not personal data; the message and its sender are never logged.
    logged: (message) => ({ subject: message.onderwerp }),
  },
  // The organisation is told of each message and answers it (docs/beheer.md §5).
  beheer: { fields: FIELDS, columns: ['naam', 'email', 'onderwerp'], notify: true, answerable: true },
  keep: { table: 'contact_messages', fields: ['naam', 'email', 'onderwerp', 'bericht'], mail: receipt },
});

/** A stored contact message. */
export type ContactMessage = Stored<ContactDto, (typeof contactForm.keep.fields)[number]>;

/** The contact messages in a storage. */
export const contactMessages = (storage: Storage): Records<ContactDto, (typeof contactForm.keep.fields)[number]> => records(storage, contactForm.keep);

/**
 * The registration form's DTO (docs/forms.md §2): every field with its rules in
 * the listed order, top to bottom. Messages come from the catalogue
 * (`protocol/messages.ts`): no rule here repeats one.
 */
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsIn,
  IsInt,
  IsLowercase,
  IsNotEmpty,
  IsUppercase,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import RegistrationForm, { FIELDS } from '../../islands/RegistrationForm.js';
import { CONSENT_VALUE, INTERESTS } from '../../protocol/registration.js';
import { Bedankt } from '../../views/pages/Bedankt.js';
import { greeting, SIGNATURE, type MailContent } from '../mail/compose.js';
import type { Storage } from '../storage/types.js';
import { IsMailbox, IsTrimmed, IsWebsite } from './custom-rules.js';
import { defineForm } from './define.js';
import { records, type Records, type Stored } from './keep.js';
import { Optional, ToArray, ToInteger, Trim } from './rules.js';

/** A registration as the form submits it, after its transforms. */
export class RegistrationDto {
  @Trim()
  @IsNotEmpty()
  @MinLength(2)
  @MaxLength(60)
  naam!: string;

  @Trim()
  @IsNotEmpty()
  @IsMailbox()
  email!: string;

  @Optional()
  @IsWebsite()
  website?: string;

  @Optional()
  @IsUUID('all')
  referentie?: string;

  @IsNotEmpty()
  @IsTrimmed()
  @IsLowercase()
  @MinLength(3)
  @MaxLength(20)
  @Matches(/^[a-z0-9_]+$/)
  gebruikersnaam!: string;

  @IsNotEmpty()
  @Length(2, 2)
  @IsUppercase()
  landcode!: string;

  @ToArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(3)
  @IsIn(Object.keys(INTERESTS), { each: true })
  interesses!: string[];

  @ToInteger()
  @IsNotEmpty()
  @IsInt()
  @Min(1)
  @Max(10)
  personen!: number;

  @IsNotEmpty()
  @IsIn([CONSENT_VALUE])
  akkoord!: string;
}

/** The registration's e-mail: the link to the person's own page (docs/operations.md §12, docs/pages.md §7). */
function confirmationMail(registration: { id: string; naam: string }, origin: string): MailContent {
  return {
    subject: 'Je aanmelding bij Eiland',
    paragraphs: [
      greeting(registration.naam),
      'Bedankt voor je aanmelding bij Eiland. Op je bevestigingspagina zie je wat we van je hebben opgeslagen. Daar kun je je gegevens ook downloaden of je aanmelding verwijderen:',
      { href: `${origin}/aanmeldingen/${registration.id}` },
      'Bewaar deze e-mail: wie de link heeft, kan je aanmelding zien.',
      SIGNATURE,
    ],
  };
}

/** The registration form: it keeps everything but the consent, and mails the link to its confirmation (docs/forms.md §2). */
export const registrationForm = defineForm({
  name: 'registration',
  path: '/aanmelden',
  island: 'RegistrationForm',
  dto: RegistrationDto,
  pages: {
    title: 'Aanmelden',
    description: 'Meld je aan bij Eiland met je naam, e-mailadres en interesses. Het formulier werkt ook zonder JavaScript.',
    island: RegistrationForm,
    // The neutral thank-you is where a filled honeypot goes (docs/forms.md §7).
    thankYou: { path: '/aanmelden/bedankt', title: 'Bedankt voor je aanmelding', description: 'Je aanmelding bij Eiland is ontvangen.', View: Bedankt },
    // One row per submission key: a repeat is sent to the first registration's page (docs/forms.md §7).
    next: (id) => `/aanmeldingen/${id}`,
  },
  beheer: { fields: FIELDS, columns: ['naam', 'email', 'personen'] },
  keep: {
    table: 'registrations',
    fields: ['naam', 'email', 'website', 'referentie', 'gebruikersnaam', 'landcode', 'interesses', 'personen'],
    mail: confirmationMail,
  },
});

/** A stored registration. */
export type Registration = Stored<RegistrationDto, (typeof registrationForm.keep.fields)[number]>;

/** The registrations in a storage. */
export const registrations = (storage: Storage): Records<RegistrationDto, (typeof registrationForm.keep.fields)[number]> => records(storage, registrationForm.keep);

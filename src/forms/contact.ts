/**
 * The contact form (docs/forms.md §9): its DTO, every field with its rules in the listed order,
 * top to bottom. Messages come from the catalogue (`protocol/messages.ts`).
 */
import { IsIn, IsNotEmpty, MaxLength, MinLength } from 'class-validator';
import { SUBJECTS } from '../../protocol/contact.js';
import type { NewContactMessage } from '../storage/types.js';
import { IsMailbox } from './custom-rules.js';
import { defineForm } from './define.js';
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

/**
 * The row a valid contact message is stored as (docs/forms.md §9).
 * @param value the validated DTO
 */
export function contactRow(value: ContactDto): NewContactMessage {
  return { naam: value.naam, email: value.email, onderwerp: value.onderwerp, bericht: value.bericht };
}

/** The contact form. */
export const contactForm = defineForm({ name: 'contact', path: '/contact', island: 'ContactForm', dto: ContactDto });

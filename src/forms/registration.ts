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
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { CONSENT_VALUE, INTERESTS } from '../../protocol/registration.js';
import type { NewRegistration } from '../storage/types.js';
import { IsMailbox, IsTrimmed } from './custom-rules.js';
import { defineForm } from './define.js';
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
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true })
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

/** The registration form. */
/**
 * The row a valid registration is stored as (docs/forms.md §2): the DTO's values, an empty
 * optional field as null.
 * @param value the validated DTO
 */
export function registrationRow(value: RegistrationDto): NewRegistration {
  return {
    naam: value.naam,
    email: value.email,
    website: value.website || null,
    referentie: value.referentie || null,
    gebruikersnaam: value.gebruikersnaam,
    landcode: value.landcode,
    interesses: value.interesses,
    personen: value.personen,
  };
}

export const registrationForm = defineForm({ name: 'registration', path: '/aanmelden', island: 'RegistrationForm', dto: RegistrationDto });

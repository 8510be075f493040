/**
 * A form, declared once (docs/forms.md §8): its name, the page that shows it and takes its post,
 * the island that renders it and its DTO. The island's `action` and `data-form` come from here
 * (through its props), as do the route (src/forms/route.tsx) and the build's rule list for the
 * island; from the DTO come the fields in order and the shape a post may have.
 */
import type { ClassConstructor } from 'class-transformer';
import { CSRF_FIELD, HONEYPOT_FIELD, SUBMISSION_FIELD } from '../../protocol/forms.js';
import type { FormShape } from './body.js';
import { traitsOf } from './rules.js';
import { rulesOf } from './validate.js';

/** A declared form. */
export interface FormDefinition<T extends object = object> {
  /** Its name in logs, rate-limit counters and the form's `data-form`, e.g. `registration`. */
  name: string;
  /** The page that shows it and takes its post, declared in `protocol/routes.json` with the island. */
  path: string;
  /** The island that renders it: its file name in `islands/`, whose chunk carries the rule list. */
  island: string;
  /** The DTO: every field with its rules, in form order. */
  dto: ClassConstructor<T>;
  /** The DTO's fields, in order. */
  fields: readonly string[];
  /** The fields a form rendered again shows its values of: all but those marked `@Secret()`. */
  shown: readonly string[];
  /** What a post may send: the fields and the hidden ones; checkbox groups may repeat. */
  shape: FormShape;
}

/**
 * Declares a form.
 * @param form its name, path, island and DTO
 * @throws TypeError when the DTO declares no field, or a name is not of lower-case letters
 * @example export const contactForm = defineForm({ name: 'contact', path: '/contact', island: 'ContactForm', dto: ContactDto })
 */
export function defineForm<T extends object>({ name, path, island, dto }: { name: string; path: string; island: string; dto: ClassConstructor<T> }): FormDefinition<T> {
  if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new TypeError(`A form's name is lower-case letters, digits and "-", got "${name}"`);
  const fields = [...rulesOf(dto).keys()];
  if (fields.length === 0) throw new TypeError(`Form "${name}": its DTO ${dto.name} declares no field with a rule`);
  const traits = traitsOf(dto);
  const multiple = fields.filter((field) => traits.get(field)?.transform === 'array');
  return {
    name,
    path,
    island,
    dto,
    fields,
    shown: fields.filter((field) => traits.get(field)?.secret !== true),
    shape: { single: [...fields.filter((f) => !multiple.includes(f)), CSRF_FIELD, SUBMISSION_FIELD, HONEYPOT_FIELD], multiple },
  };
}

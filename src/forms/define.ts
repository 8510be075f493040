/**
 * A form, declared once (docs/forms.md §8): its name, the page that shows it and takes its post,
 * the island that renders it, its DTO, its pages' texts and what it keeps. The island's `action`
 * and `data-form` come from here (through its props), as do its routes (src/forms/route.tsx), the
 * build's rule list for the island, its table's migration, its e-mail and its retention; from the
 * DTO come the fields in order and the shape a post may have.
 */
import type { ClassConstructor } from 'class-transformer';
import type { ComponentType } from 'react';
import { CSRF_FIELD, HONEYPOT_FIELD, SUBMISSION_FIELD, type FormProps } from '../../protocol/forms.js';
import type { RouteDeclaration } from '../../protocol/routes.js';
import type { FieldSpecs } from '../../islands/lib/forms/fields.js';
import type { FormShape } from './body.js';
import { keeping, type KeepDeclaration, type Keeping } from './keep.js';
import { traitsOf } from './rules.js';
import { rulesOf } from './validate.js';

/** A form's pages (docs/forms.md §8, docs/pages.md §7): its own and the one a sent form leads to. */
export interface FormPages<T> {
  /** The form page's title without the site suffix; "Fout: " is put before it while the form shows errors. */
  title: string;
  /** The form page's description (docs/pages.md §8). */
  description: string;
  /** The island component: the default export of `islands/<island>.tsx`. */
  island: ComponentType<FormProps>;
  /** The page a sent (or honeypot-filled) form leads to: static, never indexed, showing nothing that was sent. */
  thankYou: { path: string; title: string; description: string; View: ComponentType };
  /** Where a stored submission leads instead (303), given its row's id; absent: the thank-you page. */
  next?(id: string): string;
  /** What of a valid post its `<name>_received` log line carries besides the form and `repeated`: never personal data. */
  logged?(value: T): Record<string, string | number | boolean>;
}

/** How beheer shows a form's submissions (docs/beheer.md §4–§5); every part has a default. */
export interface BeheerDeclaration {
  /** The island's fields (its `FIELDS`): their labels and options name the columns and choices; absent: the fields' names. */
  fields?: FieldSpecs;
  /** The kept fields a list shows, before the date (like Django's `list_display`); absent: the first three. */
  columns?: readonly string[];
  /** Whether the organisation is told of each submission by e-mail (`NOTIFY_TO`, docs/beheer.md §5); absent: not. */
  notify?: boolean;
  /** Whether a submission can be marked answered (docs/beheer.md §5); absent: not. */
  answerable?: boolean;
}

/** A declared form. */
export interface FormDefinition<T extends object = object, K extends string = string> {
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
  /** What it keeps of a submission, when it keeps anything (src/forms/keep.ts). */
  keep?: Keeping<T, K>;
  /** Its pages. */
  pages: FormPages<T>;
  /** How beheer shows it (docs/beheer.md §4). */
  beheer: BeheerDeclaration;
  /**
   * Its pages' route declarations, for a form whose pages are not in `protocol/routes.json` (a
   * test's own form); absent: they are declared there, with the island and the menu.
   */
  routes?: readonly RouteDeclaration[];
}

/** What every form declares. */
interface FormInput<T> {
  name: string;
  path: string;
  island: string;
  dto: ClassConstructor<T>;
  pages: FormPages<NoInfer<T>>;
  beheer?: BeheerDeclaration;
  routes?: readonly RouteDeclaration[];
}

/**
 * Declares a form.
 * @param form its name, path, island, DTO and pages (`pages`: the texts, the island component, the
 *   thank-you page), and what it keeps (`keep`: its table and the migration that makes it, the
 *   fields stored, its e-mail, its days; absent: nothing is stored)
 * @throws TypeError when the DTO declares no field, a name is not of lower-case letters, or the
 *   keeping is not one (see `keeping`)
 * @example export const contactForm = defineForm({ name: 'contact', path: '/contact', island: 'ContactForm', dto: ContactDto, pages: { title: 'Contact', ... }, keep: { table: 'contact_messages', fields: ['naam', 'email'] } })
 */
export function defineForm<T extends object, K extends keyof T & string>(form: FormInput<T> & { keep: KeepDeclaration<T, K> }): FormDefinition<T, K> & { keep: Keeping<T, K> };
export function defineForm<T extends object>(form: FormInput<T>): FormDefinition<T, never>;
export function defineForm<T extends object, K extends keyof T & string>({ name, path, island, dto, keep, pages, beheer = {}, routes }: FormInput<T> & { keep?: KeepDeclaration<T, K> }): FormDefinition<T, K> {
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
    keep: keep && keeping(name, keep, traits, beheer.notify ?? false),
    pages,
    beheer,
    ...(routes && { routes }),
  };
}

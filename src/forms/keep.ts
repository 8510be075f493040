/**
 * What a form keeps (docs/forms.md §8): its table, the DTO's fields stored there, its e-mail and
 * how long it is kept. The row a submission is stored as, the outbox's message, the retention and
 * the erasure follow from this declaration; neither src/storage/ nor src/mail/ nor
 * src/retention.ts names a form.
 */
import type { MailContent } from '../mail/compose.js';
import { submissionTable, type MigrationUp } from '../storage/migrations/submissions.js';
import type { Column, Kept, Saved, Storage, StoredRow } from '../storage/types.js';
import type { FieldTraits } from './rules.js';

/** The fields beheer's search finds a submission by, where a form keeps them (docs/beheer.md §4): its name and e-mail address. */
export const SEARCHED = ['naam', 'email'];

/** Some fields of T, each may be null (optional ones stay optional). */
type Nullable<T, K extends keyof T> = { [F in K]: T[F] | null };

/** The values of a submission to store: the kept fields of its DTO, an empty optional one absent or null. */
export type Values<T, K extends string> = Nullable<T, Extract<K, keyof T>>;

/** A stored submission: its id, its time of storing (ISO 8601) and its kept fields, an empty optional one null. */
export type Stored<T, K extends string> = { id: string; createdAt: string } & { [F in Extract<K, keyof T>]-?: Exclude<T[F], undefined> | (undefined extends T[F] ? null : never) };

/** What a form declares it keeps (its `keep` in `defineForm`). */
export interface KeepDeclaration<T, K extends string> {
  /** Its table. */
  table: string;
  /**
   * The name of the migration that makes its table from these fields (a list or text column, an
   * integer one for `@ToInteger()`, nullable for `@Optional()`), sorted after every earlier
   * migration's name, e.g. `0009-appointments`; absent: the table is made by a migration of the
   * list in src/storage/migrations/ (the first forms').
   */
  migration?: string;
  /** The DTO's fields stored, each in a column of its name; a list (`@ToArray()`) as JSON text. */
  fields: readonly K[];
  /**
   * The e-mail a new submission gets, to the address in its `email` field (docs/operations.md
   * §12), composed from the stored row when it is sent; absent: none.
   */
  mail?(row: Stored<T, K>, origin: string): MailContent;
  /** Days a submission is kept (docs/operations.md §11); absent: `RETENTION_DAYS`. */
  days?: number;
}

/** A form's keeping: its declaration, and the row mapping that follows from its DTO. */
export interface Keeping<T, K extends string> extends KeepDeclaration<T, K> {
  /** The storage layer's view: the table, the kind of its e-mails (the form's name), whether it mails. */
  kept: Kept;
  /** The columns a submission is stored as. */
  row(values: Values<T, K>): Record<string, Column>;
  /** The submission a stored row holds. */
  read(row: StoredRow): Stored<T, K>;
  /** The migration that makes its table, when it declares one. */
  migrates?: { name: string; up: MigrationUp };
}

/**
 * The keeping of a form from its declaration.
 * @param name the form's name (the kind of its e-mails)
 * @param traits its DTO's field traits (which fields are lists)
 * @param notifies whether the organisation is told of each submission (docs/beheer.md §5)
 * @throws TypeError when a mailed form keeps no `email` field, or the table is not a plain name
 */
export function keeping<T, K extends string>(name: string, declaration: KeepDeclaration<T, K>, traits: ReadonlyMap<string, FieldTraits>, notifies = false): Keeping<T, K> {
  const { table, fields, mail } = declaration;
  if (!/^[a-z][a-z0-9_]*$/.test(table)) throw new TypeError(`Form "${name}": its table is lower-case letters, digits and "_", got "${table}"`);
  if (mail && !(fields as readonly string[]).includes('email')) throw new TypeError(`Form "${name}": it sends an e-mail, so it keeps an "email" field`);
  const lists = new Set(fields.filter((field) => traits.get(field)?.transform === 'array'));
  const columns = fields.map((name) => ({ name, type: traits.get(name)?.transform === 'integer' ? ('integer' as const) : ('text' as const), nullable: traits.get(name)?.optional ?? false }));
  return {
    ...declaration,
    ...(declaration.migration && { migrates: { name: declaration.migration, up: submissionTable(table, columns) } }),
    kept: { table, kind: name, mailed: mail !== undefined, notifies, searched: SEARCHED.filter((field) => (fields as readonly string[]).includes(field)) },
    row: (values) =>
      Object.fromEntries(
        fields.map((field) => {
          const value = (values as Record<string, unknown>)[field];
          return [field, lists.has(field) ? JSON.stringify(value ?? []) : value === undefined || value === '' ? null : (value as Column)];
        }),
      ),
    read: (row) => {
      const stored: Record<string, unknown> = { id: row.id, createdAt: row.createdAt };
      for (const field of fields) stored[field] = lists.has(field) ? (JSON.parse(String(row[field])) as unknown) : row[field];
      return stored as Stored<T, K>;
    },
  };
}

/** A form's submissions in storage. */
export interface Records<T, K extends string> {
  /** Stores a submission once per submission key, with its e-mail in the outbox when the form mails (docs/operations.md §3, §12). */
  save(submissionKey: string, values: Values<T, K>): Promise<Saved>;
  /** The submission with this id, or undefined. */
  find(id: string): Promise<Stored<T, K> | undefined>;
  /** Erases a submission and its e-mails (docs/pages.md §7). @returns whether there was one */
  erase(id: string): Promise<boolean>;
}

/**
 * A form's submissions in a storage.
 * @param keep the form's keeping (`form.keep`)
 */
export function records<T, K extends string>(storage: Storage, keep: Keeping<T, K>): Records<T, K> {
  return {
    save: (submissionKey, values) => storage.save(keep.kept, submissionKey, keep.row(values)),
    find: async (id) => {
      const row = await storage.find(keep.table, id);
      return row && keep.read(row);
    },
    erase: (id) => storage.erase(keep.table, id),
  };
}

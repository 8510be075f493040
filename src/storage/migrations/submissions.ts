/**
 * A form's table, made by the form's own migration from what it declares it keeps (docs/forms.md
 * §8): its id, its submission key (one row per key, docs/operations.md §3), its time of storing
 * and a column per kept field, written once for both engines.
 */
import type { Kysely } from 'kysely';
import type { Engine } from '../engine.js';

/** A kept field's column: text (a list as JSON text) or an integer; nullable when the field is optional. */
export interface SubmissionColumn {
  name: string;
  type: 'text' | 'integer';
  nullable: boolean;
}

/** A migration's work, given its engine and the transaction (Kysely applies migrations in their names' order). */
export type MigrationUp = (engine: Engine, db: Kysely<unknown>) => Promise<void>;

/**
 * The migration that makes a form's table.
 * @param table the table's name (a plain name: the keeping checked it)
 * @param columns the kept fields' columns, in order
 */
export function submissionTable(table: string, columns: readonly SubmissionColumn[]): MigrationUp {
  return async (engine, db) => {
    let create = db.schema
      .createTable(table)
      .addColumn('id', engine.uuid, (c) => c.primaryKey())
      .addColumn('submission_key', engine.uuid, (c) => c.notNull().unique());
    for (const { name, type, nullable } of columns) create = create.addColumn(name, type, (c) => (nullable ? c : c.notNull()));
    await create.addColumn('created_at', engine.name === 'sqlite' ? 'text' : 'timestamptz', (c) => c.notNull()).execute();
    await db.schema.createIndex(`${table}_created_at`).on(table).column('created_at').execute();
  };
}

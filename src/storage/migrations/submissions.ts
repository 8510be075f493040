/**
 * A form's table, made by the form's own migration from what it declares it keeps (docs/forms.md
 * §8): its id, its submission key (one row per key, docs/operations.md §3), its time of storing,
 * a column per kept field and the searched ones folded, written once for both engines.
 */
import type { Kysely } from 'kysely';
import type { Engine } from '../engine.js';
import { SEARCH_COLUMN } from '../types.js';

/** A kept field's column: text (a list as JSON text) or an integer; nullable when the field is optional. */
export interface SubmissionColumn {
  name: string;
  type: 'text' | 'integer';
  nullable: boolean;
}

/**
 * The index of beheer's lists (docs/beheer.md §8): newest first by time and id, and covering the
 * folded search column, so a search scans the index alone, not the rows; the retention job's
 * deletions by time use it too.
 */
export const LIST_INDEX = ['created_at', 'id', SEARCH_COLUMN];

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
    // The searched columns folded (docs/beheer.md §4), written with the row.
    await create.addColumn(SEARCH_COLUMN, 'text').addColumn('created_at', engine.name === 'sqlite' ? 'text' : 'timestamptz', (c) => c.notNull()).execute();
    await db.schema.createIndex(`${table}_list`).on(table).columns(LIST_INDEX).execute();
  };
}

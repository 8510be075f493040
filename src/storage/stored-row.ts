/**
 * A form table's row as the storage contract gives it (docs/operations.md §3): its id, its time of
 * storing as ISO 8601 and its kept columns; the submission key and the folded search column stay
 * inside the storage.
 */
import type { SubmissionTable } from './tables.js';
import { SEARCH_COLUMN, type Column, type StoredRow } from './types.js';

/**
 * The stored row of a table's row, whichever engine read it (PostgreSQL gives `created_at` as a Date).
 * @param row a row of a form's table, every column selected
 */
export function storedRow(row: SubmissionTable): StoredRow {
  const { submission_key: _key, created_at: createdAt, [SEARCH_COLUMN]: _search, ...columns } = row;
  return { ...(columns as Record<string, Column>), id: String(row.id), createdAt: createdAt instanceof Date ? createdAt.toISOString() : String(createdAt) };
}

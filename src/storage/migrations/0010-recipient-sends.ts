/**
 * Migration 10, written once for both engines (docs/operations.md §12): the e-mails sent per
 * inbox, a keyed digest and a time (ms since the epoch) each, which the recipient limit counts and
 * no erasure touches; the retention job deletes them after 24 hours.
 */
import type { Kysely } from 'kysely';
import type { Engine } from '../engine.js';

/** Migrates `db` (a transaction) of an engine. */
export async function up(_engine: Engine, db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('recipient_sends')
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('recipient_sends_recipient').on('recipient_sends').columns(['recipient', 'created_at']).execute();
}

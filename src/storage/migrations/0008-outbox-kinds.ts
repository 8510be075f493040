/**
 * Migration 8, written once for both engines (docs/operations.md §3, §12): the outbox holds a
 * message kind (the form's name) and the id of the row it is about, not a column per form, and
 * its times are ms since the epoch on the database's clock. The rows are copied over (each
 * engine's old times read its own way), the old table and its foreign keys dropped: the erasure
 * and the retention delete a row's messages with it. PostgreSQL's lists become JSON text, as
 * SQLite keeps them.
 */
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../engine.js';

/** ms since the epoch of an old time column, per engine (SQLite kept ISO text, PostgreSQL `timestamptz`). */
const ms = (engine: Engine, column: string) => (engine.name === 'sqlite' ? `CAST(unixepoch(${column}, 'subsec') * 1000 AS INTEGER)` : `(extract(epoch from ${column}) * 1000)::bigint`);

/** Migrates `db` (a transaction) of an engine. */
export async function up(engine: Engine, db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('messages')
    .addColumn('id', engine.uuid, (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('about', engine.uuid, (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state IN ('pending', 'sent', 'set_aside', 'suppressed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('due_at', 'bigint', (c) => c.notNull())
    .addColumn('lease', engine.uuid)
    .addColumn('leased_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .execute();
  const due = engine.name === 'sqlite' ? 'due_at' : ms(engine, 'due_at');
  const leasedUntil = engine.name === 'sqlite' ? 'leased_until' : ms(engine, 'leased_until');
  await sql
    .raw(
      `INSERT INTO messages (id, kind, about, recipient, state, attempts, due_at, lease, leased_until, last_error, created_at, sent_at)
       SELECT id, CASE WHEN registration_id IS NULL THEN 'contact' ELSE 'registration' END, coalesce(registration_id, contact_message_id),
         coalesce(recipient, ''), state, attempts, ${due}, lease, ${leasedUntil}, last_error, ${ms(engine, 'created_at')}, ${ms(engine, 'sent_at')}
       FROM outbox`,
    )
    .execute(db);
  await db.schema.dropTable('outbox').execute();
  await db.schema.alterTable('messages').renameTo('outbox').execute();
  await db.schema.createIndex('outbox_due').on('outbox').column('due_at').where(sql.ref('state'), '=', 'pending').execute();
  await db.schema.createIndex('outbox_about').on('outbox').column('about').execute();
  await db.schema.createIndex('outbox_recipient').on('outbox').columns(['recipient', 'created_at']).execute();
  if (engine.name === 'postgres') await sql`ALTER TABLE registrations ALTER COLUMN interesses TYPE TEXT USING array_to_json(interesses)::text`.execute(db);
}

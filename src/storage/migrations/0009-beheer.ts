/**
 * Migration 9, written once for both engines (docs/beheer.md §1, §2, §7): the staff's accounts,
 * their one-time password links and sessions (only SHA-256 digests of the secrets; a link's token
 * sealed for its e-mail until it is used or expires), the audit log,
 * when each account last looked at each form, and which submissions were marked answered. Times
 * are ms since the epoch.
 */
import { sql, type Kysely } from 'kysely';
import { SEARCH_COLUMN } from '../types.js';
import { LIST_INDEX } from './submissions.js';
import type { Engine } from '../engine.js';

/** Migrates `db` (a transaction) of an engine. */
export async function up(engine: Engine, db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('staff')
    .addColumn('id', engine.uuid, (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('disabled_at', 'bigint')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lockouts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('staff_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('id', engine.uuid, (c) => c.notNull().unique())
    .addColumn('staff_id', engine.uuid, (c) => c.notNull())
    .addColumn('sealed', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('staff_links_staff').on('staff_links').column('staff_id').execute();
  await db.schema
    .createTable('staff_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('staff_id', engine.uuid, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('staff_sessions_staff').on('staff_sessions').column('staff_id').execute();
  await db.schema
    .createTable('audit_log')
    .addColumn('id', engine.uuid, (c) => c.primaryKey())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('staff_id', engine.uuid)
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('form', 'text')
    .addColumn('about', 'text')
    .addColumn('detail', 'text')
    .addColumn('address', 'text')
    .execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute();
  await db.schema
    .createTable('staff_views')
    .addColumn('staff_id', engine.uuid, (c) => c.notNull())
    .addColumn('form', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('staff_views_key', ['staff_id', 'form'])
    .execute();
  await db.schema
    .createTable('answered')
    .addColumn('about', engine.uuid, (c) => c.primaryKey())
    .addColumn('form', 'text', (c) => c.notNull())
    .addColumn('staff_id', engine.uuid, (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  // The first forms' tables, made by migrations 1 and 3, get what a form's own migration gives its
  // table: the index of beheer's lists, newest first, and the searched columns folded (name and
  // e-mail), filled in for the rows there are.
  for (const table of ['registrations', 'contact_messages']) {
    await db.schema.alterTable(table).addColumn(SEARCH_COLUMN, 'text').execute();
    await sql`UPDATE ${sql.table(table)} SET ${sql.ref(SEARCH_COLUMN)} = ${engine.fold(sql`naam || ${'\n'} || email`)}`.execute(db);
    await db.schema.createIndex(`${table}_list`).on(table).columns(LIST_INDEX).execute();
  }
}

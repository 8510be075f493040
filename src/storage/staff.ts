/**
 * The storage of beheer (docs/beheer.md), each query written once for both engines on Kysely:
 * accounts, links, sessions, the audit log, views and marks, and the lists of a form's
 * submissions (keyset pages, newest first: no `OFFSET`).
 */
import { randomUUID } from 'node:crypto';
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Engine } from './engine.js';
import { fold } from './fold.js';
import { NOTIFY_RECIPIENT } from './notify.js';
import { guarded } from './guard.js';
import type { StaffTable, SubmissionTable, Tables } from './tables.js';
import type { ListedRow, ListQuery, Role, StaffAccount, StaffStorage } from './staff-types.js';
import { storedRow } from './stored-row.js';
import { SEARCH_COLUMN } from './types.js';

/** The outbox's kind of a password link's e-mail (docs/beheer.md §1), about the link's id. */
export const LINK_KIND = 'staff-link';

/** An account row as beheer sees it. */
function accountOf(row: StaffTable): StaffAccount {
  return {
    id: String(row.id),
    email: row.email,
    role: row.role as Role,
    passwordHash: row.password_hash,
    disabledAt: row.disabled_at,
    failures: row.failures,
    lockouts: row.lockouts,
    lockedUntil: row.locked_until,
    createdAt: row.created_at,
  };
}

/** A listed row: the form's row and, when marked answered, the mark with its account's address. */
function listedOf(joined: Record<string, unknown>): ListedRow {
  const { answered_by: by, answered_at: at, answered_email: email, ...row } = joined;
  return {
    row: storedRow(row as unknown as SubmissionTable),
    ...(at !== null && at !== undefined && { answered: { staffId: String(by), at: Number(at), ...(typeof email === 'string' && { email }) } }),
  };
}

/** `%`, `_` and the escape itself escaped for a `LIKE … ESCAPE '\'` pattern. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The storage of beheer over an opened engine.
 */
export function staffStorage(engine: Engine): StaffStorage {
  const { db } = engine;
  const rows = db.withTables<Record<string, SubmissionTable>>();
  const byEmail = (email: string) => db.selectFrom('staff').selectAll().where('email', '=', email.toLowerCase());

  /** The rows of a list query, newest first, each with its mark. */
  const listing = (query: ListQuery) => {
    let q = rows
      .selectFrom(query.table)
      .leftJoin('answered', 'answered.about', `${query.table}.id`)
      .leftJoin('staff', 'staff.id', 'answered.staff_id')
      .selectAll(query.table)
      .select(['answered.staff_id as answered_by', 'answered.at as answered_at', 'staff.email as answered_email']);
    const column = (name: string) => sql.ref(`${query.table}.${name}`);
    if (query.search) q = q.where(engine.contains(column(SEARCH_COLUMN), fold(query.search)));
    for (const { column: name, value, list } of query.equals ?? []) {
      q = list ? q.where(column(name), 'like', sql<string>`${`%${likeEscaped(JSON.stringify(value))}%`} ESCAPE '\\'`) : q.where(column(name), '=', value);
    }
    if (query.from) q = q.where(column('created_at'), '>=', query.from);
    if (query.before) q = q.where(column('created_at'), '<', query.before);
    if (query.answered !== undefined) q = q.where('answered.at', query.answered ? 'is not' : 'is', null);
    return q;
  };

  return {
    addAccount: (email, role, now) =>
      guarded('staff', async () => {
        const id = randomUUID();
        const added = await db
          .insertInto('staff')
          .values({ id, email: email.toLowerCase(), role, password_hash: null, disabled_at: null, failures: 0, lockouts: 0, locked_until: null, created_at: now })
          .onConflict((c) => c.column('email').doNothing())
          .executeTakeFirst();
        return Number(added.numInsertedOrUpdatedRows ?? 0) > 0 ? id : undefined;
      }),
    accountByEmail: (email) => guarded('staff', async () => ((row) => row && accountOf(row))(await byEmail(email).executeTakeFirst())),
    accountById: (id) => guarded('staff', async () => ((row) => row && accountOf(row))(await db.selectFrom('staff').selectAll().where('id', '=', id).executeTakeFirst())),
    accounts: () => guarded('staff', async () => (await db.selectFrom('staff').selectAll().orderBy('email').execute()).map(accountOf)),
    disable: (id, now) =>
      guarded('staff', () =>
        engine.writing(async (trx) => {
          const changed = await trx.updateTable('staff').set({ disabled_at: now }).where('id', '=', id).executeTakeFirst();
          await trx.deleteFrom('staff_sessions').where('staff_id', '=', id).execute();
          return Number(changed.numUpdatedRows) > 0;
        }),
      ),
    setPassword: (id, hash) =>
      guarded('staff', () =>
        engine.writing(async (trx) => {
          await trx.updateTable('staff').set({ password_hash: hash, failures: 0, lockouts: 0, locked_until: null }).where('id', '=', id).execute();
          await trx.deleteFrom('staff_sessions').where('staff_id', '=', id).execute();
        }),
      ),
    addLink: (tokenHash, staffId, expiresAt, mail) =>
      guarded('staff', () =>
        engine.writing(async (trx) => {
          const id = randomUUID();
          await trx.insertInto('staff_links').values({ token_hash: tokenHash, id, staff_id: staffId, sealed: mail?.sealed ?? null, expires_at: expiresAt, used_at: null }).execute();
          if (mail) {
            const now = Date.now();
            // Staff's own link: not counted against the inbox's limit, which is the public forms'.
            await trx.insertInto('outbox').values({ id: randomUUID(), kind: LINK_KIND, about: id, recipient: LINK_KIND, state: 'pending', attempts: 0, due_at: now, created_at: now }).execute();
          }
        }),
      ),
    linkMail: (id, now) =>
      guarded('staff', async () => {
        const row = await db
          .selectFrom('staff_links')
          .innerJoin('staff', 'staff.id', 'staff_links.staff_id')
          .select(['staff.email', 'staff_links.sealed'])
          .where('staff_links.id', '=', id)
          .where('staff_links.used_at', 'is', null)
          .where('staff_links.expires_at', '>', now)
          .executeTakeFirst();
        return row?.sealed ? { email: row.email, sealed: row.sealed } : undefined;
      }),
    linkAccount: (tokenHash, now) =>
      guarded('staff', async () => {
        const row = await db
          .selectFrom('staff_links')
          .innerJoin('staff', 'staff.id', 'staff_links.staff_id')
          .selectAll('staff')
          .where('staff_links.token_hash', '=', tokenHash)
          .where('staff_links.used_at', 'is', null)
          .where('staff_links.expires_at', '>', now)
          .where('staff.disabled_at', 'is', null)
          .executeTakeFirst();
        return row && accountOf(row);
      }),
    useLink: (tokenHash, now) =>
      guarded('staff', () =>
        engine.writing(async (trx) => {
          // One update decides: of two uses at once, one changes the row. The sealed token and its
          // e-mail, if still unsent, go with it.
          const used = await trx
            .updateTable('staff_links')
            .set({ used_at: now, sealed: null })
            .where('token_hash', '=', tokenHash)
            .where('used_at', 'is', null)
            .where('expires_at', '>', now)
            .returning(['staff_id', 'id'])
            .executeTakeFirst();
          if (used === undefined) return undefined;
          await trx.deleteFrom('outbox').where('about', '=', used.id).where('state', '<>', 'sent').execute();
          return String(used.staff_id);
        }),
      ),
    failedLogin: (id, now, limit, lockMs) =>
      guarded('staff', async () => {
        // From the limit on, each failure locks the account for lockMs · 2^(locks so far).
        await db
          .updateTable('staff')
          .set({
            failures: sql<number>`failures + 1`,
            lockouts: sql<number>`CASE WHEN failures + 1 >= ${limit} THEN lockouts + 1 ELSE lockouts END`,
            locked_until: sql<number>`CASE WHEN failures + 1 >= ${limit} THEN CAST(${now} AS bigint) + CAST(${lockMs} AS bigint) * (1 << (CASE WHEN lockouts > 20 THEN 20 ELSE lockouts END)) ELSE locked_until END`,
          })
          .where('id', '=', id)
          .execute();
      }),
    succeededLogin: (id) => guarded('staff', async () => void (await db.updateTable('staff').set({ failures: 0, lockouts: 0, locked_until: null }).where('id', '=', id).execute())),
    startSession: (idHash, staffId, now) => guarded('session', async () => void (await db.insertInto('staff_sessions').values({ id_hash: idHash, staff_id: staffId, created_at: now, seen_at: now }).execute())),
    session: (idHash) =>
      guarded('session', async () => {
        const row = await db
          .selectFrom('staff_sessions')
          .innerJoin('staff', 'staff.id', 'staff_sessions.staff_id')
          .selectAll('staff')
          .select(['staff_sessions.created_at as session_created_at', 'staff_sessions.seen_at as session_seen_at'])
          .where('staff_sessions.id_hash', '=', idHash)
          .executeTakeFirst();
        return row && { account: accountOf(row), createdAt: row.session_created_at, seenAt: row.session_seen_at };
      }),
    touchSession: (idHash, now) => guarded('session', async () => void (await db.updateTable('staff_sessions').set({ seen_at: now }).where('id_hash', '=', idHash).execute())),
    endSession: (idHash) => guarded('session', async () => void (await db.deleteFrom('staff_sessions').where('id_hash', '=', idHash).execute())),
    audit: ({ staffId, action, form, about, detail, address }, now) =>
      guarded('audit', async () => {
        const entry = { id: randomUUID(), at: now, staff_id: staffId ?? null, action, form: form ?? null, about: about ?? null, detail: detail ? JSON.stringify(detail) : null, address: address ?? null };
        await db.insertInto('audit_log').values(entry).execute();
      }),
    auditLog: (limit, before) =>
      guarded('audit', async () => {
        let q = db.selectFrom('audit_log').leftJoin('staff', 'staff.id', 'audit_log.staff_id').selectAll('audit_log').select('staff.email');
        if (before) q = q.where((eb) => eb.or([eb('audit_log.at', '<', before.at), eb.and([eb('audit_log.at', '=', before.at), eb('audit_log.id', '<', before.id)])]));
        const found = await q.orderBy('audit_log.at', 'desc').orderBy('audit_log.id', 'desc').limit(limit).execute();
        return found.map((row) => ({
          id: String(row.id),
          at: row.at,
          action: row.action,
          ...(row.staff_id !== null && { staffId: String(row.staff_id) }),
          ...(row.email !== null && { email: row.email }),
          ...(row.form !== null && { form: row.form }),
          ...(row.about !== null && { about: row.about }),
          ...(row.detail !== null && { detail: JSON.parse(row.detail) as Record<string, string | number | boolean> }),
          ...(row.address !== null && { address: row.address }),
        }));
      }),
    lastSeen: (staffId) => guarded('staff', async () => Object.fromEntries((await db.selectFrom('staff_views').select(['form', 'seen_at']).where('staff_id', '=', staffId).execute()).map((row) => [row.form, row.seen_at]))),
    markSeen: (staffId, form, now) =>
      guarded('staff', async () => void (await db.insertInto('staff_views').values({ staff_id: staffId, form, seen_at: now }).onConflict((c) => c.columns(['staff_id', 'form']).doUpdateSet({ seen_at: now })).execute())),
    markAnswered: (form, about, staffId, now) => guarded('staff', async () => void (await db.insertInto('answered').values({ about, form, staff_id: staffId, at: now }).onConflict((c) => c.column('about').doNothing()).execute())),
    counts: (table, since) =>
      guarded('list', async () => {
        const counted: Record<string, number> = {};
        for (const [key, at] of Object.entries(since)) {
          const row = await rows.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('created_at', '>=', at).executeTakeFirstOrThrow();
          counted[key] = Number(row.n);
        }
        return counted;
      }),
    list: (query, limit, after) =>
      guarded('list', async () => {
        let q = listing(query);
        const created = sql.ref(`${query.table}.created_at`);
        const id = sql.ref(`${query.table}.id`);
        if (after) {
          const at = after.createdAt;
          q = q.where((eb: ExpressionBuilder<any, any>) => eb.or([eb(created, '<', at), eb.and([eb(created, '=', at), eb(id, '<', after.id)])]));
        }
        const found = await q.orderBy(created, 'desc').orderBy(id, 'desc').limit(limit).execute();
        return found.map(listedOf);
      }),
    listed: (table, id) =>
      guarded('list', async () => {
        const row = await listing({ table }).where(sql.ref(`${table}.id`), '=', id).executeTakeFirst();
        return row && listedOf(row);
      }),
    suppressedNotifications: (summaryId) =>
      guarded('list', async () => {
        const since = db.selectFrom('outbox').select('created_at').where('id', '=', summaryId);
        const row = await db
          .selectFrom('outbox')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('recipient', '=', NOTIFY_RECIPIENT)
          .where('state', '=', 'suppressed')
          .where('created_at', '>=', since)
          .executeTakeFirstOrThrow();
        return Number(row.n);
      }),
    mailStates: (about) => guarded('list', async () => await db.selectFrom('outbox').select(['kind', 'state']).where('about', '=', about).orderBy('created_at').execute()),
    sweep: (now, auditBefore, idleMs, absoluteMs) =>
      guarded('sweep', () =>
        engine.writing(async (trx: Kysely<Tables>) => {
          const gone = [
            await trx.deleteFrom('audit_log').where('at', '<', auditBefore).executeTakeFirst(),
            await trx
              .deleteFrom('staff_sessions')
              .where((eb) => eb.or([eb('seen_at', '<', now - idleMs), eb('created_at', '<', now - absoluteMs)]))
              .executeTakeFirst(),
            await trx
              .deleteFrom('outbox')
              .where('kind', '=', LINK_KIND)
              .where('about', 'in', trx.selectFrom('staff_links').select('id').where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', now)])))
              .executeTakeFirst(),
            await trx
              .deleteFrom('staff_links')
              .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', now)]))
              .executeTakeFirst(),
          ];
          return gone.reduce((sum, result) => sum + Number(result.numDeletedRows), 0);
        }),
      ),
  };
}

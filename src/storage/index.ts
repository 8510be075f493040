/**
 * The storage contract (docs/operations.md §3) on Kysely, each query written once for both
 * engines: embedded SQLite without `DATABASE_URL`, PostgreSQL with it. What truly differs between
 * them is in src/storage/engine.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { PROJECT_ROOT } from '../project-root.js';
import { postgresEngine, sqliteEngine, type Engine, type PostgresOptions } from './engine.js';
import { guarded, RATE_LIMIT_CLEANUP_EVERY } from './guard.js';
import { migrate } from './migrations/index.js';
import type { MigrationUp } from './migrations/submissions.js';
import { notifier, NOTIFY_RECIPIENT } from './notify.js';
import { readOncePerTurn } from './per-turn.js';
import { MAILS_PER_RECIPIENT, RECIPIENT_WINDOW_MS, recipientOf } from './recipient.js';
import { param, prepare } from './prepared.js';
import { staffStorage } from './staff.js';
import { storedRow } from './stored-row.js';
import type { SubmissionTable } from './tables.js';
import { SEARCH_COLUMN, type Column, type Kept, type Saved, type Storage, type StorageSource } from './types.js';
import { fold } from './fold.js';

/** Default embedded database file: `data/eiland.db` in the project. */
export const DEFAULT_DATABASE_FILE = join(PROJECT_ROOT, 'data', 'eiland.db');

/** The advisory lock of the retention job: one instance deletes at a time ("eiland" + 1). */
export const RETENTION_LOCK = 0x65696c616e64 + 1;

/**
 * The class of the recipients' locks (two-key locks never meet the one-key ones above): "eil" in
 * ASCII.
 */
const RECIPIENT_LOCK = 0x65696c;

/** The statements a table of submissions runs, prepared once each when the table is first used. */
function submissionStatements({ db }: Engine, table: string) {
  const rows = db.withTables<Record<string, SubmissionTable>>();
  return {
    idByKey: prepare(rows.selectFrom(table).select('id').where('submission_key', '=', param('key'))),
    byId: prepare(rows.selectFrom(table).selectAll().where('id', '=', param('id'))),
    deleteById: prepare(rows.deleteFrom(table).where('id', '=', param('id'))),
    /** The insert of a row with these columns, once per key. */
    insert: (columns: readonly string[]) =>
      prepare(
        rows
          .insertInto(table)
          .values({ id: param('id'), submission_key: param('key'), created_at: param('createdAt'), ...Object.fromEntries(columns.map((column) => [column, param(column)])) })
          .onConflict((conflict) => conflict.column('submission_key').doNothing()),
      ),
  };
}

/** The statements of the outbox and the small tables, prepared once per open database. */
function statements({ db, nowMs }: Engine) {
  // An update of the outbox row this id names, under this lease, still pending: one that ended
  // and was taken by another is not this caller's to settle.
  const mine = db.updateTable('outbox').where('id', '=', param('id')).where('lease', '=', param('lease')).where('state', '=', 'pending');
  return {
    // One row per connection on PostgreSQL, kept by triggers (migrations 5 and 7): not a count of every registration per request.
    count: prepare(db.selectFrom('count_shards').select(sql<number>`coalesce(sum(value), 0)`.as('n')).where('name', '=', 'registrations')),
    // What an inbox was sent in the window, whatever was erased since (docs/operations.md §12).
    mailed: prepare(
      db
        .selectFrom('recipient_sends')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('recipient', '=', param('recipient'))
        .where('created_at', '>', sql<number>`${nowMs} - ${RECIPIENT_WINDOW_MS}`),
    ),
    counted: prepare(db.insertInto('recipient_sends').values({ recipient: param('recipient'), created_at: nowMs })),
    expireCounted: prepare(db.deleteFrom('recipient_sends').where('created_at', '<=', sql<number>`${nowMs} - ${RECIPIENT_WINDOW_MS}`)),
    enqueue: prepare(
      db.insertInto('outbox').values({ id: param('id'), kind: param('kind'), about: param('about'), recipient: param('recipient'), state: param('state'), attempts: 0, due_at: nowMs, created_at: nowMs }),
    ),
    forget: prepare(db.deleteFrom('outbox').where('about', '=', param('about'))),
    unmark: prepare(db.deleteFrom('answered').where('about', '=', param('about'))),
    settle: {
      sent: prepare(mine.set({ state: 'sent', sent_at: nowMs, lease: null, leased_until: null, last_error: null })),
      retry: prepare(mine.set({ lease: null, leased_until: null, due_at: sql<number>`${nowMs} + ${param('delayMs')}`, last_error: param('error') })),
      set_aside: prepare(mine.set({ state: 'set_aside', lease: null, leased_until: null, last_error: param('error') })),
      released: prepare(mine.set({ lease: null, leased_until: null, attempts: sql<number>`attempts - 1` })),
    },
    // Sent and suppressed messages are kept a day, for an operator to see them (docs/operations.md §12).
    expireMail: prepare(
      db
        .deleteFrom('outbox')
        .where((eb) => eb.or([eb.and([eb('state', '=', 'sent'), eb('sent_at', '<', param('before'))]), eb.and([eb('state', '=', 'suppressed'), eb('created_at', '<', param('before'))])])),
    ),
    addSetting: prepare(db.insertInto('settings').values({ name: param('name'), value: param('value') }).onConflict((conflict) => conflict.column('name').doNothing())),
    setting: prepare(db.selectFrom('settings').select('value').where('name', '=', param('name'))),
    expireHits: prepare(db.deleteFrom('rate_limits').where('reset_at', '<=', param('now'))),
    hit: prepare(
      db
        .insertInto('rate_limits')
        .values({ key: param('key'), hits: 1, reset_at: param('resetAt') })
        .onConflict((conflict) =>
          conflict.column('key').doUpdateSet({
            hits: sql<number>`CASE WHEN rate_limits.reset_at <= ${param('now')} THEN 1 ELSE rate_limits.hits + 1 END`,
            reset_at: sql<number>`CASE WHEN rate_limits.reset_at <= ${param('now')} THEN excluded.reset_at ELSE rate_limits.reset_at END`,
          }),
        )
        .returning(['hits', 'reset_at']),
    ),
    unhit: prepare(db.updateTable('rate_limits').set({ hits: sql<number>`hits - 1` }).where('key', '=', param('key')).where('hits', '>', 0)),
    resetHits: prepare(db.deleteFrom('rate_limits').where('key', '=', param('key'))),
  };
}

/**
 * The outbox's lease of the due messages (docs/operations.md §12), counted as tried: on
 * PostgreSQL, rows another instance is leasing right now are skipped, not waited for (`FOR
 * UPDATE SKIP LOCKED`); a row leased here is not due for another until its lease ends.
 */
function leaseStatement({ db, nowMs, rowLocks }: Engine) {
  let due = db
    .selectFrom('outbox')
    .select('id')
    .where('state', '=', 'pending')
    .where('due_at', '<=', nowMs)
    .where((eb) => eb.or([eb('leased_until', 'is', null), eb('leased_until', '<', nowMs)]))
    .orderBy('due_at')
    .limit(param('limit'));
  if (rowLocks) due = due.forUpdate().skipLocked();
  return prepare(
    db
      .updateTable('outbox')
      .set({ attempts: (eb) => eb('attempts', '+', 1), lease: param('lease'), leased_until: sql<number>`${nowMs} + ${param('leaseMs')}` })
      .where('id', 'in', due)
      .returning(['id', 'kind', 'about', 'attempts', 'lease']),
  );
}

/** Rows a write changed, as either driver tells it. */
const changed = (result: { numAffectedRows?: bigint }) => Number(result.numAffectedRows ?? 0);

/**
 * The storage API over an opened engine, its database migrated.
 */
function storageOf(engine: Engine, source: StorageSource, options: StorageOptions): Storage {
  const { db } = engine;
  const sqlOf = statements(engine);
  const lease = leaseStatement(engine);
  const tables = new Map<string, ReturnType<typeof submissionStatements>>();
  const tableOf = (table: string) => tables.get(table) ?? tables.set(table, submissionStatements(engine, table)).get(table)!;
  const inserts = new Map<string, ReturnType<ReturnType<typeof submissionStatements>['insert']>>();
  let hits = 0;
  const count = readOncePerTurn(() => guarded('count', async () => Number((await sqlOf.count(db)).rows[0]!.n)));

  /**
   * The save of one row per submission key (docs/operations.md §3; a unique constraint), with the
   * outbox's message about a new row in the same transaction (docs/operations.md §12), suppressed
   * when its recipient has had its e-mails of the day. The recipient's lock, held to the commit,
   * keeps any other instance from counting the same recipient's messages between this count and
   * this insert; other recipients are not held up.
   */
  const notify = notifier(engine, (trx) => engine.lock(trx, RECIPIENT_LOCK, NOTIFY_RECIPIENT, true));
  // The key of the inboxes' digests: made once per database, so every instance on it agrees (first writer wins).
  let madeKey: Promise<string> | undefined;
  const recipientKey = () =>
    (madeKey ??= (async () => {
      await sqlOf.addSetting(db, { name: 'recipient_key', value: randomBytes(32).toString('base64url') });
      return (await sqlOf.setting(db, { name: 'recipient_key' })).rows[0]!.value;
    })().catch((error: unknown) => {
      madeKey = undefined;
      throw error;
    }));
  const save = async ({ table, kind, mailed, notifies, searched }: Kept, submissionKey: string, values: Record<string, Column>): Promise<Saved> => {
    // The searched columns folded once, as they are stored: a search then compares one column (docs/beheer.md §4).
    const row = searched.length === 0 ? values : { ...values, [SEARCH_COLUMN]: fold(searched.map((column) => values[column] ?? '').join('\n')) };
    const columns = Object.keys(row);
    const shape = `${table}(${columns.join(',')})`;
    const insert = inserts.get(shape) ?? inserts.set(shape, tableOf(table).insert(columns)).get(shape)!;
    const id = randomUUID();
    // Read before the transaction: on SQLite a read beside it would wait for it to end.
    const key = mailed ? await recipientKey() : undefined;
    const suppressed = await engine.writing(async (trx) => {
      if (changed(await insert(trx, { ...row, id, key: submissionKey, createdAt: new Date().toISOString() })) !== 1) return undefined;
      if (notifies && options.notify) await notify(trx, kind, id);
      if (!mailed) return false;
      const recipient = recipientOf(String(row.email), key!);
      await engine.lock(trx, RECIPIENT_LOCK, recipient, true);
      const over = Number((await sqlOf.mailed(trx, { recipient })).rows[0]!.n) >= MAILS_PER_RECIPIENT;
      await sqlOf.enqueue(trx, { id: randomUUID(), kind, about: id, recipient, state: over ? 'suppressed' : 'pending' });
      if (!over) await sqlOf.counted(trx, { recipient });
      return over;
    });
    if (suppressed !== undefined) return { id, created: true, suppressed };
    return { id: (await tableOf(table).idByKey(db, { key: submissionKey })).rows[0]!.id, created: false, suppressed: false };
  };

  /** Deletes the expired rows of the tables and what refers to them; see Storage.deleteExpired. */
  const deleteExpired = async (cutoffs: ReadonlyArray<{ table: string; before: Date }>, sentBefore: Date) => {
    const deleted = await engine.writing(async (trx) => {
      if (!(await engine.lock(trx, RETENTION_LOCK, undefined, false))) return undefined;
      // Ended rate-limit windows: their keys hold client addresses (docs/operations.md §11).
      let personal = changed(await sqlOf.expireHits(trx, { now: Date.now() }));
      const rows: Record<string, number> = {};
      const rowsOf = trx.withTables<Record<string, SubmissionTable>>();
      // Every outbox row deleted is counted: those of the expired rows, whatever their state, too.
      let mail = 0;
      for (const { table, before } of cutoffs) {
        const expired = rowsOf.selectFrom(table).select('id').where('created_at', '<', before.toISOString());
        mail += Number((await rowsOf.deleteFrom('outbox').where('about', 'in', expired).executeTakeFirst()).numDeletedRows);
        await rowsOf.deleteFrom('answered').where('about', 'in', expired).execute();
        rows[table] = Number((await rowsOf.deleteFrom(table).where('created_at', '<', before.toISOString()).executeTakeFirst()).numDeletedRows);
        personal += rows[table];
      }
      mail += changed(await sqlOf.expireMail(trx, { before: sentBefore.getTime() }));
      // The inboxes' counts of a day ago: a digest, no address, but kept no longer than the limit needs.
      await sqlOf.expireCounted(trx);
      return { rows, mail, personal };
    });
    if (deleted === undefined) return undefined;
    if (deleted.personal > 0) await engine.forgetDeleted();
    return { rows: deleted.rows, mail: deleted.mail };
  };

  // The count is forgotten by every write that may change it (once it has ended, committed or not), and by close: later reads reject.
  return {
    source,
    staff: staffStorage(engine),

    countRegistrations: count.read,

    save: (kept, submissionKey, row) => guarded('save', count.forgetting(() => save(kept, submissionKey, row))),

    find: (table, id) =>
      guarded('find', async () => {
        const row = (await tableOf(table).byId(db, { id })).rows[0];
        return row && storedRow(row as SubmissionTable);
      }),

    erase: (table, id) =>
      guarded(
        'delete',
        count.forgetting(async () => {
          const erased = await engine.writing(async (trx) => {
            await sqlOf.forget(trx, { about: id });
            await sqlOf.unmark(trx, { about: id });
            return changed(await tableOf(table).deleteById(trx, { id })) > 0;
          });
          if (erased) await engine.forgetDeleted();
          return erased;
        }),
      ),

    deleteExpired: (cutoffs, sentBefore) => guarded('expire', count.forgetting(() => deleteExpired(cutoffs, sentBefore))),

    leaseMail: (limit, leaseMs) =>
      guarded('lease mail', () => engine.writing(async (trx) => (await lease(trx, { limit, leaseMs, lease: randomUUID() })).rows.map((row) => ({ ...row, lease: row.lease! })))),

    settleMail: ({ id, lease: token }, outcome) =>
      guarded('settle mail', async () => {
        const args = { id, lease: token, delayMs: 'delayMs' in outcome ? outcome.delayMs : undefined, error: 'error' in outcome ? outcome.error : undefined };
        return changed(await sqlOf.settle[outcome.state](db, args)) > 0;
      }),

    setting: (name, create) =>
      guarded('setting', async () => {
        await sqlOf.addSetting(db, { name, value: create() });
        return (await sqlOf.setting(db, { name })).rows[0]!.value;
      }),

    hitRateLimit: (key, windowMs) =>
      guarded('rate limit', async () => {
        const now = Date.now();
        if (++hits % RATE_LIMIT_CLEANUP_EVERY === 0) await sqlOf.expireHits(db, { now });
        const row = (await sqlOf.hit(db, { key, now, resetAt: now + windowMs })).rows[0]!;
        return { hits: row.hits, resetAt: new Date(Number(row.reset_at)) };
      }),

    unhitRateLimit: (key) => guarded('rate limit', async () => void (await sqlOf.unhit(db, { key }))),

    resetRateLimit: (key) => guarded('rate limit', async () => void (await sqlOf.resetHits(db, { key }))),

    close: () => guarded('close', count.forgetting(() => db.destroy())),
  };
}

/** The migrations of the forms that make their own tables, by name (see `formMigrations` in src/forms/index.ts). */
export type FormMigrations = Readonly<Record<string, MigrationUp>>;

/** What a storage does besides the contract's defaults. */
export interface StorageOptions {
  /** Whether a new submission of a form that notifies gets the organisation's notification (`NOTIFY_TO` set, docs/beheer.md §5). */
  notify?: boolean;
}

/** Migrates an opened engine, the forms' own migrations with the list, and gives its storage; an engine that cannot be migrated is closed. */
async function opened(engine: Engine, source: StorageSource, forms: FormMigrations, options: StorageOptions): Promise<Storage> {
  await guarded('open', () => migrate(engine, forms)).catch(async (error: unknown) => {
    await engine.db.destroy().catch(() => undefined); // not left open behind the refusal
    throw error;
  });
  return storageOf(engine, source, options);
}

/**
 * Opens (creating when needed) and migrates the SQLite database.
 * @param file path of the database file, e.g. `data/eiland.db`
 * @param forms the migrations of the forms that make their own tables (`formMigrations` of src/forms/index.ts); without them such a form has no table
 * @throws StorageUnavailableError when the file cannot be opened or migrated
 */
export async function openSqlite(file: string, forms: FormMigrations = {}, options: StorageOptions = {}): Promise<Storage> {
  return opened(await guarded('open', () => sqliteEngine(file)), { file }, forms, options);
}

/**
 * Connects to PostgreSQL and migrates.
 * @param forms the migrations of the forms that make their own tables (`formMigrations` of src/forms/index.ts); without them such a form has no table
 * @throws StorageUnavailableError when the server cannot be reached or migrated
 */
export async function openPostgres(options: PostgresOptions, forms: FormMigrations = {}, storageOptions: StorageOptions = {}): Promise<Storage> {
  return opened(await guarded('open', () => postgresEngine(options)), { url: options.url }, forms, storageOptions);
}

/**
 * Opens storage for a configuration.
 * @param config `databaseUrl` selects PostgreSQL (pool of `databasePoolSize`); absent, the embedded SQLite file
 * @param options `file`: the SQLite file (tests pass a temporary one); `logger`: for pool errors;
 *   `notify`: whether the forms that notify enqueue the organisation's notifications;
 *   `forms`: the forms' own migrations (`formMigrations` of src/forms/index.ts)
 * @throws StorageUnavailableError when the database cannot be opened or migrated
 */
export function openStorage(config: Pick<Config, 'databaseUrl' | 'databasePoolSize'>, options: { file?: string; logger?: Logger; forms?: FormMigrations } & StorageOptions = {}): Promise<Storage> {
  if (config.databaseUrl === undefined) return openSqlite(options.file ?? DEFAULT_DATABASE_FILE, options.forms, options);
  const pool = {
    url: config.databaseUrl,
    poolSize: config.databasePoolSize,
    onPoolError: (error: Error) => options.logger?.warn({ event: 'database_connection_lost', err: error }, 'database_connection_lost'),
  };
  return openPostgres(pool, options.forms, options);
}

export * from './types.js';
export type * from './staff-types.js';

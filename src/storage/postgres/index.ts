/**
 * The PostgreSQL engine (docs/operations.md §3): the `pg` driver with a pool, migrated at
 * start-up (src/storage/postgres/migrations/) under an advisory lock, so instances starting
 * together migrate once.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { guarded, RATE_LIMIT_CLEANUP_EVERY } from '../guard.js';
import { readOncePerTurn } from '../per-turn.js';
import { CONTACT_MESSAGE_COLUMNS, outboxMessage, REGISTRATION_COLUMNS, toContactMessage, toRegistration, type ContactMessageRow, type OutboxRow, type RegistrationRow } from '../row.js';
import { MAILS_PER_RECIPIENT, RECIPIENT_WINDOW_MS, recipientOf } from '../recipient.js';
import type { MailOutcome, NewContactMessage, NewRegistration, OutboxMessage, Saved, Storage } from '../types.js';
import { MIGRATIONS } from './migrations/index.js';

/** The advisory lock every instance takes to migrate (any fixed number; "eiland" in ASCII). */
const MIGRATION_LOCK = 0x65696c616e64;

/** The advisory lock of the retention job: one instance deletes at a time ("eiland" + 1). */
export const RETENTION_LOCK = MIGRATION_LOCK + 1;

/**
 * The class of the recipients' advisory locks (`pg_advisory_xact_lock(class, hashtext(recipient))`;
 * two-key locks never meet the one-key ones above): "eil" in ASCII.
 */
const RECIPIENT_LOCK = 0x65696c;

/** Removes the rate-limit counters whose window has ended ($1: now, in ms). */
const EXPIRE_HITS = 'DELETE FROM rate_limits WHERE reset_at <= $1';

/** Options of {@link openPostgres}. */
interface PostgresOptions {
  /** `postgres://…` */
  url: string;
  /** Connections in the pool (`DATABASE_POOL_SIZE`). */
  poolSize: number;
  /** Pool errors of idle connections (the server restarted, the network dropped): logged, never a crash. */
  onPoolError?(error: Error): void;
}

/**
 * Runs work in one transaction on a connection of its own: committed when the work resolves,
 * rolled back when it throws (the error then goes on).
 */
async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Applies the migrations not yet applied, in one transaction under the advisory lock. */
function migrate(pool: pg.Pool): Promise<void> {
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())');
    const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
    const applied = rows[0]?.version ?? 0;
    for (const [index, sql] of MIGRATIONS.entries()) {
      if (index + 1 <= applied) continue;
      await client.query(sql);
      await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [index + 1]);
    }
  });
}

/**
 * Deletes the rows stored before a time, and the outbox's messages sent before another, under the
 * retention lock, or nothing when another instance holds it (docs/operations.md §11); the lock
 * goes with the transaction. The outbox's messages about a deleted row go with it (cascade).
 */
function deleteExpired(pool: pg.Pool, before: Date, sentBefore: Date): Promise<{ registrations: number; contactMessages: number; mail: number } | undefined> {
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [RETENTION_LOCK]);
    if (!rows[0]?.locked) return undefined;
    const registrations = (await client.query('DELETE FROM registrations WHERE created_at < $1', [before])).rowCount ?? 0;
    const contactMessages = (await client.query('DELETE FROM contact_messages WHERE created_at < $1', [before])).rowCount ?? 0;
    // Sent and suppressed messages are kept a day, for an operator to see them (docs/operations.md §12).
    const mail = (await client.query("DELETE FROM outbox WHERE (state = 'sent' AND sent_at < $1) OR (state = 'suppressed' AND created_at < $1)", [sentBefore])).rowCount ?? 0;
    // Ended rate-limit windows: their keys hold client addresses (docs/operations.md §11).
    await client.query(EXPIRE_HITS, [Date.now()]);
    return { registrations, contactMessages, mail };
  });
}

/**
 * The save of a table that keeps one row per submission key (docs/operations.md §3; a unique
 * constraint), with the outbox's message about a new row in the same transaction
 * (docs/operations.md §12), suppressed when its recipient has had its e-mails of the day. The
 * recipient's advisory lock, held to the commit, keeps any other instance from counting the same
 * recipient's messages between this count and this insert; other recipients are not held up.
 * @param table the table (a constant of this module, never input)
 * @param columns its other columns (constants of src/storage/row.ts); the row's values are parameters
 * @param mailColumn the outbox's column that refers to this table
 * @returns save(submissionKey, row): the id of the key's row, whether this call stored it, and
 *   whether its e-mail was suppressed
 */
function saveOncePerKey<T extends { email: string }>(pool: pg.Pool, table: string, columns: ReadonlyArray<keyof T & string>, mailColumn: string) {
  const names = ['id', 'submission_key', ...columns];
  const insert = `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')}) ON CONFLICT (submission_key) DO NOTHING`;
  // Two statements: a statement's snapshot is taken as it begins, so the count must begin after the lock is held.
  const lock = `SELECT pg_advisory_xact_lock(${RECIPIENT_LOCK}, hashtext($1))`;
  const enqueue = `INSERT INTO outbox (id, ${mailColumn}, recipient, state)
    SELECT $1, $2, $3, CASE WHEN count(*) >= ${MAILS_PER_RECIPIENT} THEN 'suppressed' ELSE 'pending' END
    FROM outbox WHERE recipient = $3 AND created_at > now() - $4 * interval '1 millisecond' AND state <> 'suppressed'
    RETURNING state`;
  const idByKey = `SELECT id FROM ${table} WHERE submission_key = $1`;
  return async (submissionKey: string, row: T): Promise<Saved> => {
    const id = randomUUID();
    const state = await inTransaction(pool, async (client) => {
      if ((await client.query(insert, [id, submissionKey, ...columns.map((c) => row[c])])).rowCount !== 1) return undefined;
      const recipient = recipientOf(row.email);
      await client.query(lock, [recipient]);
      return (await client.query<{ state: string }>(enqueue, [randomUUID(), id, recipient, RECIPIENT_WINDOW_MS])).rows[0]!.state;
    });
    if (state !== undefined) return { id, created: true, suppressed: state === 'suppressed' };
    return { id: (await pool.query<{ id: string }>(idByKey, [submissionKey])).rows[0]!.id, created: false, suppressed: false };
  };
}

/**
 * Leases the due messages (docs/operations.md §12): rows another instance is leasing right now are
 * skipped, not waited for (`FOR UPDATE SKIP LOCKED`), and a row leased here is not due for another
 * until its lease ends. The statement also reads what the composer needs from the row each
 * message is about.
 */
async function leaseMail(pool: pg.Pool, limit: number, leaseMs: number): Promise<OutboxMessage[]> {
  const { rows } = await pool.query<OutboxRow>(
    `WITH due AS (
       SELECT id FROM outbox
       WHERE state = 'pending' AND due_at <= now() AND (leased_until IS NULL OR leased_until < now())
       ORDER BY due_at LIMIT $1 FOR UPDATE SKIP LOCKED
     ), leased AS (
       UPDATE outbox o SET attempts = o.attempts + 1, lease = gen_random_uuid(), leased_until = now() + $2 * interval '1 millisecond'
       FROM due WHERE o.id = due.id
       RETURNING o.id, o.lease, o.attempts, o.registration_id, o.contact_message_id
     )
     SELECT l.id, l.lease, l.attempts, l.registration_id, l.contact_message_id, coalesce(r.naam, c.naam) AS naam, coalesce(r.email, c.email) AS email
     FROM leased l LEFT JOIN registrations r ON r.id = l.registration_id LEFT JOIN contact_messages c ON c.id = l.contact_message_id`,
    [limit, leaseMs],
  );
  return rows.map(outboxMessage);
}

/** The statement and parameters that record an outcome of a send under its lease ($1, $2). */
function settlement({ id, lease }: Pick<OutboxMessage, 'id' | 'lease'>, outcome: MailOutcome): [string, unknown[]] {
  const mine = "WHERE id = $1 AND lease = $2 AND state = 'pending'";
  switch (outcome.state) {
    case 'sent':
      return [`UPDATE outbox SET state = 'sent', sent_at = now(), lease = NULL, leased_until = NULL, last_error = NULL ${mine}`, [id, lease]];
    case 'retry':
      return [`UPDATE outbox SET lease = NULL, leased_until = NULL, due_at = now() + $3 * interval '1 millisecond', last_error = $4 ${mine}`, [id, lease, outcome.delayMs, outcome.error]];
    case 'set_aside':
      return [`UPDATE outbox SET state = 'set_aside', lease = NULL, leased_until = NULL, last_error = $3 ${mine}`, [id, lease, outcome.error]];
    case 'released':
      return [`UPDATE outbox SET lease = NULL, leased_until = NULL, attempts = attempts - 1 ${mine}`, [id, lease]];
  }
}

/**
 * Connects to PostgreSQL and migrates.
 * @throws StorageUnavailableError when the server cannot be reached or migrated
 */
export async function openPostgres({ url, poolSize, onPoolError }: PostgresOptions): Promise<Storage> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // A request waits at most this long for a connection, then gets the 503 page.
    connectionTimeoutMillis: 5000,
    statement_timeout: 10_000,
    idleTimeoutMillis: 30_000,
  });
  pool.on('error', (error) => onPoolError?.(error));
  await guarded('open', () => migrate(pool)).catch(async (error: unknown) => {
    await pool.end().catch(() => undefined);
    throw error;
  });
  let hits = 0;
  const saveRegistration = saveOncePerKey<NewRegistration>(pool, 'registrations', REGISTRATION_COLUMNS, 'registration_id');
  const saveContactMessage = saveOncePerKey<NewContactMessage>(pool, 'contact_messages', CONTACT_MESSAGE_COLUMNS, 'contact_message_id');

  // A few rows kept by triggers (migrations 5 and 7), one per connection that saved: not a count
  // of every registration per request.
  const count = readOncePerTurn(() => guarded('count', async () => Number((await pool.query<{ n: string }>("SELECT coalesce(sum(value), 0) AS n FROM count_shards WHERE name = 'registrations'")).rows[0]!.n)));
  // Forgotten when a write that may change it has ended, committed or not (a read begun before it
  // is dropped too), and by close: later reads reject.

  return {
    countRegistrations: count.read,

    saveRegistration: (submissionKey: string, r: NewRegistration) => guarded('save', count.forgetting(() => saveRegistration(submissionKey, r))),

    findRegistration: (id: string) =>
      guarded('find', async () => {
        const row = (await pool.query<RegistrationRow>('SELECT * FROM registrations WHERE id = $1', [id])).rows[0];
        return row ? toRegistration(row) : undefined;
      }),

    deleteRegistration: (id: string) => guarded('delete', count.forgetting(async () => ((await pool.query('DELETE FROM registrations WHERE id = $1', [id])).rowCount ?? 0) > 0)),

    deleteExpired: (before: Date, sentBefore: Date) => guarded('expire', count.forgetting(() => deleteExpired(pool, before, sentBefore))),

    leaseMail: (limit: number, leaseMs: number) => guarded('lease mail', () => leaseMail(pool, limit, leaseMs)),

    settleMail: (message: Pick<OutboxMessage, 'id' | 'lease'>, outcome: MailOutcome) => guarded('settle mail', async () => ((await pool.query(...settlement(message, outcome))).rowCount ?? 0) > 0),

    saveContactMessage: (submissionKey: string, m: NewContactMessage) => guarded('save', () => saveContactMessage(submissionKey, m)),

    findContactMessage: (id: string) =>
      guarded('find', async () => {
        const row = (await pool.query<ContactMessageRow>('SELECT * FROM contact_messages WHERE id = $1', [id])).rows[0];
        return row ? toContactMessage(row) : undefined;
      }),

    setting: (name: string, create: () => string) =>
      guarded('setting', async () => {
        await pool.query('INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, create()]);
        return (await pool.query<{ value: string }>('SELECT value FROM settings WHERE name = $1', [name])).rows[0]!.value;
      }),

    hitRateLimit: (key: string, windowMs: number) =>
      guarded('rate limit', async () => {
        const now = Date.now();
        if (++hits % RATE_LIMIT_CLEANUP_EVERY === 0) await pool.query(EXPIRE_HITS, [now]);
        const { rows } = await pool.query<{ hits: number; reset_at: string }>(
          `INSERT INTO rate_limits AS r (key, hits, reset_at) VALUES ($1, 1, $2)
           ON CONFLICT (key) DO UPDATE SET
             hits = CASE WHEN r.reset_at <= $3 THEN 1 ELSE r.hits + 1 END,
             reset_at = CASE WHEN r.reset_at <= $3 THEN EXCLUDED.reset_at ELSE r.reset_at END
           RETURNING hits, reset_at`,
          [key, now + windowMs, now],
        );
        return { hits: rows[0]!.hits, resetAt: new Date(Number(rows[0]!.reset_at)) };
      }),

    unhitRateLimit: (key: string) => guarded('rate limit', async () => void (await pool.query('UPDATE rate_limits SET hits = hits - 1 WHERE key = $1 AND hits > 0', [key]))),

    resetRateLimit: (key: string) => guarded('rate limit', async () => void (await pool.query('DELETE FROM rate_limits WHERE key = $1', [key]))),

    close: () => guarded('close', count.forgetting(() => pool.end())),
  };
}

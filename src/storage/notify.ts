/**
 * The organisation's notifications in the outbox (docs/beheer.md §5): one per new submission of a
 * form that notifies, enqueued in the submission's transaction, at most 30 an hour whatever the
 * instances; past that each is kept as suppressed, and one summary is due an hour after the first
 * of them, telling how many were not sent.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Engine } from './engine.js';
import { param, prepare } from './prepared.js';
import type { Tables } from './tables.js';

/** The outbox's recipient of a notification: no address's digest, so never counted against a person's limit. */
export const NOTIFY_RECIPIENT = 'notify';

/** Notifications sent at most in an hour. */
export const NOTIFICATIONS_PER_HOUR = 30;

/** An hour, in ms: the window of the limit and the delay of the summary. */
const HOUR_MS = 60 * 60 * 1000;

/** The outbox's kind of a form's notification: `notify:<form>`. */
export const notifyKind = (form: string): string => `notify:${form}`;

/** The outbox's kind of the summary of the notifications not sent. */
export const SUMMARY_KIND = 'notify-summary';

/**
 * The enqueue of a notification, in a save's transaction.
 * @param lock holds the notifications' lock to the end of the transaction, so no other instance
 *   counts between this count and this insert
 */
export function notifier({ db, nowMs }: Engine, lock: (trx: Kysely<Tables>) => Promise<unknown>) {
  const sentLastHour = prepare(
    db
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('recipient', '=', NOTIFY_RECIPIENT)
      .where('kind', '<>', SUMMARY_KIND)
      .where('created_at', '>', sql<number>`${nowMs} - ${HOUR_MS}`)
      .where('state', '<>', 'suppressed'),
  );
  const summaryPending = prepare(db.selectFrom('outbox').select('id').where('kind', '=', SUMMARY_KIND).where('state', '=', 'pending'));
  const enqueue = prepare(
    db.insertInto('outbox').values({ id: param('id'), kind: param('kind'), about: param('about'), recipient: NOTIFY_RECIPIENT, state: param('state'), attempts: 0, due_at: sql<number>`CAST(${param('now')} AS bigint) + CAST(${param('delayMs')} AS bigint)`, created_at: param('now') }),
  );
  // One time for the notification and its summary: the summary counts those suppressed from its own time on.
  const clock = prepare(db.selectNoFrom(nowMs.as('now')));
  return async (trx: Kysely<Tables>, form: string, about: string): Promise<void> => {
    await lock(trx);
    const now = Number((await clock(trx)).rows[0]!.now);
    const over = Number((await sentLastHour(trx)).rows[0]!.n) >= NOTIFICATIONS_PER_HOUR;
    await enqueue(trx, { id: randomUUID(), kind: notifyKind(form), about, state: over ? 'suppressed' : 'pending', delayMs: 0, now });
    if (over && (await summaryPending(trx)).rows.length === 0) {
      const id = randomUUID();
      await enqueue(trx, { id, kind: SUMMARY_KIND, about: id, state: 'pending', delayMs: HOUR_MS, now });
    }
  };
}

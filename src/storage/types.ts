/**
 * The storage contract (docs/operations.md §3): one small async API, the same for
 * every engine. Anything an engine fails with becomes `StorageUnavailableError`
 * (the error handler's 503 page), never a crash.
 */
import type { StaffStorage } from './staff-types.js';

/** A value of a stored column: a list is kept as JSON text (docs/operations.md §3). */
export type Column = string | number | null;

/** What a form keeps of a submission (docs/forms.md §8), as the storage layer sees it. */
export interface Kept {
  /** Its table (a constant of the form's definition, never input). */
  table: string;
  /** The outbox's kind of message about its rows: the form's name. */
  kind: string;
  /** Whether a new row gets an e-mail to the address in its `email` column. */
  mailed: boolean;
  /** Whether the organisation is told of a new row (docs/beheer.md §5), when the storage notifies. */
  notifies: boolean;
  /** The columns beheer's search finds a row by (docs/beheer.md §4), kept folded in its `search_text`. */
  searched: readonly string[];
}

/** The column of a form's table that holds its searched columns folded (docs/beheer.md §4): never part of a stored row as read. */
export const SEARCH_COLUMN = 'search_text';

/** A stored row: its id, its time of storing (ISO 8601) and the columns its form keeps. */
export interface StoredRow {
  id: string;
  createdAt: string;
  [column: string]: Column;
}

/**
 * A message of the outbox, leased to be sent (docs/operations.md §12): its kind and the row it is
 * about, whose form composes it when it is sent.
 */
export interface OutboxMessage {
  /** UUID of the outbox row: the message's own, stable over its sends. */
  id: string;
  /** The form whose row it is about (its name). */
  kind: string;
  /** The id of the row it is about. */
  about: string;
  /** Sends tried, this one included. */
  attempts: number;
  /** This lease's token: a settle with another (the lease ended and another took it) changes nothing. */
  lease: string;
}

/** What became of a leased message's send. */
export type MailOutcome =
  /** Delivered to the SMTP server (or written as a file): kept a short while, then deleted. */
  | { state: 'sent' }
  /** Not delivered: tried again after `delayMs`; `error` is the server's answer, kept for operators. */
  | { state: 'retry'; delayMs: number; error: string }
  /** Not delivered and not to be tried again until an operator says so. */
  | { state: 'set_aside'; error: string }
  /** Not tried to the end (the instance is stopping): due again at once, this try not counted. */
  | { state: 'released' };

/** The database cannot be used right now; the error handler answers it with the 503 page (docs/errors.md §3, docs/operations.md §3). */
export class StorageUnavailableError extends Error {
  constructor(
    readonly operation: string,
    cause: unknown,
  ) {
    super(`Database unavailable during ${operation}`, { cause });
    this.name = 'StorageUnavailableError';
  }
}

/** What a save did (docs/operations.md §3, §12). */
export interface Saved {
  /** The id of the submission key's row. */
  id: string;
  /** Whether this call stored it (false: the key's row was there). */
  created: boolean;
  /** Whether its e-mail was kept as suppressed, not to be sent: its recipient had 3 e-mails in 24 hours. */
  suppressed: boolean;
}

/** A rate-limit counter's state after a hit. */
interface RateLimitHit {
  /** Hits in the current window, this one included. */
  hits: number;
  /** When the window ends. */
  resetAt: Date;
}

/** A database as it is opened: the SQLite file, or PostgreSQL's URL (it may hold a password: never logged). */
export type StorageSource = { file: string } | { url: string };

/** The storage API. Every method rejects with `StorageUnavailableError` on engine failure. */
export interface Storage {
  /** Where the database is, for another thread to open it too (the outbox's sender: src/mail/thread.ts). */
  readonly source: StorageSource;
  /** Beheer's accounts, sessions, audit log, marks and lists (docs/beheer.md). */
  staff: StaffStorage;
  /** Number of stored registrations (the start page's figure, kept by triggers: docs/operations.md §3). */
  countRegistrations(): Promise<number>;
  /**
   * Stores a submission once per submission key (unique constraint): posting the same rendered
   * form twice returns the first row's id. A new row of a mailed form gets its e-mail in the
   * outbox in the same transaction (docs/operations.md §12): pending, or suppressed when its
   * address has had 3 e-mails in the last 24 hours, whatever the instance. A new row of a form that
   * notifies gets the organisation's notification there too, when the storage notifies
   * (docs/beheer.md §5): pending, or suppressed past 30 in an hour, with one summary due an hour on.
   * @param kept the form's table and kind
   * @param submissionKey the form's per-render key (a UUID)
   * @param row the columns the form keeps (a list as JSON text)
   */
  save(kept: Kept, submissionKey: string, row: Record<string, Column>): Promise<Saved>;
  /** The row of a table with this id, or undefined. */
  find(table: string, id: string): Promise<StoredRow | undefined>;
  /**
   * Erases a row (docs/pages.md §7: the person's own erasure), with the outbox's messages about it
   * and its mark in beheer (docs/beheer.md §6).
   * @returns whether there was one to erase
   */
  erase(table: string, id: string): Promise<boolean>;
  /**
   * Deletes each table's rows stored before its cut-off (docs/operations.md §11), with the
   * outbox's messages about them, the messages sent (or suppressed) before another time, and the
   * rate-limit counters whose window has ended (their keys name client addresses); one instance
   * at a time: on PostgreSQL under an advisory lock that another instance's run holds.
   * @param cutoffs per table, the time before which its rows go
   * @param sentBefore the outbox's cut-off: messages sent earlier are deleted
   * @returns how many rows of each table were deleted, and `mail`: sent messages; or undefined
   *   when another instance is running it now
   */
  deleteExpired(cutoffs: ReadonlyArray<{ table: string; before: Date }>, sentBefore: Date): Promise<{ rows: Record<string, number>; mail: number } | undefined>;
  /**
   * Leases the outbox's messages that are due (docs/operations.md §12): each is leased by one
   * caller, whatever the instances (`FOR UPDATE SKIP LOCKED` on PostgreSQL), and counted as
   * tried. A lease not settled within `leaseMs` (the instance died) makes the message due again.
   * @param limit at most this many
   * @param leaseMs how long the lease holds, in ms (on the database's clock)
   */
  leaseMail(limit: number, leaseMs: number): Promise<OutboxMessage[]>;
  /**
   * Records what became of a leased message's send, if the lease is still the caller's: a lease
   * that ended and was taken by another, and a message gone since (erased), are left as they are.
   * @param message the leased message (its id and lease token)
   * @returns whether it was recorded (false: the lease was no longer the caller's, or the message
   *   is gone)
   */
  settleMail(message: Pick<OutboxMessage, 'id' | 'lease'>, outcome: MailOutcome): Promise<boolean>;
  /**
   * A setting, created once with `create()` when absent (first writer wins, so
   * several instances on one database agree).
   */
  setting(name: string, create: () => string): Promise<string>;
  /**
   * Counts a hit for a rate-limit key in the database, so every instance on it counts together
   * (docs/forms.md §7). A key whose window has ended starts a new window of `windowMs`.
   */
  hitRateLimit(key: string, windowMs: number): Promise<RateLimitHit>;
  /** Takes one hit back (never below 0). */
  unhitRateLimit(key: string): Promise<void>;
  /** Forgets a key. */
  resetRateLimit(key: string): Promise<void>;
  /** Closes the database; later calls reject. */
  close(): Promise<void>;
}

/**
 * The storage contract of beheer (docs/beheer.md): the staff's accounts, links, sessions, audit
 * log and marks, and the lists of a form's submissions. Every method rejects with
 * `StorageUnavailableError` on engine failure. Times are ms since the epoch; secrets arrive here
 * only as their SHA-256 digests, passwords only as their hashes.
 */
import type { StoredRow } from './types.js';

/** A staff account's role (docs/beheer.md §1): `reader` reads and exports, `admin` also erases, marks answered and reads the audit log. */
export type Role = 'reader' | 'admin';

/** A staff account as beheer sees it. */
export interface StaffAccount {
  id: string;
  email: string;
  role: Role;
  /** The password's hash, null until a link set one. */
  passwordHash: string | null;
  disabledAt: number | null;
  /** Failed logins since the last success. */
  failures: number;
  /** Times the account was locked since the last success: each lock lasts twice the one before. */
  lockouts: number;
  lockedUntil: number | null;
  createdAt: number;
}

/** A session found by its id's digest, with its account. */
export interface StaffSession {
  account: StaffAccount;
  createdAt: number;
  seenAt: number;
}

/** An entry of the audit log (docs/beheer.md §7): ids only, never a submission's data. */
export interface AuditEntry {
  /** The account, absent for a failed login of an unknown address. */
  staffId?: string;
  action: string;
  form?: string;
  /** The id of what the action was about: a submission, an account. */
  about?: string;
  /** What else tells the action: a filter, a row count, a role; never personal data. */
  detail?: Record<string, string | number | boolean>;
  /** The client address. */
  address?: string;
}

/** An entry as read back, with its account's address (absent when unknown or deleted). */
export interface AuditRecord extends Omit<AuditEntry, 'detail'> {
  id: string;
  at: number;
  email?: string;
  detail?: Record<string, string | number | boolean>;
}

/** Which of a form's submissions a list shows (docs/beheer.md §4). */
export interface ListQuery {
  /** The form's table. */
  table: string;
  /** A term matched, folded (case and accents), against the row's searched columns (its `search_text`). */
  search?: string;
  /** Columns equal to a value; a `list` column (JSON text) containing it. */
  equals?: ReadonlyArray<{ column: string; value: string; list: boolean }>;
  /** Stored at or after this time, and before that one (ISO 8601). */
  from?: string;
  before?: string;
  /** Only those marked answered (true) or not (false). */
  answered?: boolean;
}

/** A place in a list, newest first: the last row shown. */
export interface ListCursor {
  createdAt: string;
  id: string;
}

/** A listed submission: its stored row and, when marked, who marked it answered and when. */
export interface ListedRow {
  row: StoredRow;
  answered?: { staffId: string; email?: string; at: number };
}

/** The storage of beheer. */
export interface StaffStorage {
  /** @returns the new account's id, or undefined when the address has one */
  addAccount(email: string, role: Role, now: number): Promise<string | undefined>;
  /** The account of an address (compared lower-cased), or undefined. */
  accountByEmail(email: string): Promise<StaffAccount | undefined>;
  accountById(id: string): Promise<StaffAccount | undefined>;
  /** Every account, by address. */
  accounts(): Promise<StaffAccount[]>;
  /** Disables an account and ends its sessions. @returns whether it was there */
  disable(id: string, now: number): Promise<boolean>;
  /** Replaces the password (null: cleared, as a reset does), ends every session, clears the failures. */
  setPassword(id: string, hash: string | null): Promise<void>;
  /**
   * Keeps a link's digest, valid until `expiresAt`; with `mail`, its sealed token too and its e-mail
   * in the outbox (kind `staff-link`, about the link's id), in one transaction.
   */
  addLink(tokenHash: string, staffId: string, expiresAt: number, mail?: { sealed: string }): Promise<void>;
  /** A link's e-mail: its account's address and its sealed token, while it is unused and valid; else undefined. */
  linkMail(id: string, now: number): Promise<{ email: string; sealed: string } | undefined>;
  /** The account of a link not used and not expired at `now`, or undefined. */
  linkAccount(tokenHash: string, now: number): Promise<StaffAccount | undefined>;
  /** Uses a link once: @returns its account's id when it was valid and unused, else undefined */
  useLink(tokenHash: string, now: number): Promise<string | undefined>;
  /** Counts a failed login; from the `limit`th on the account waits `lockMs`, doubling with each lock. */
  failedLogin(id: string, now: number, limit: number, lockMs: number): Promise<void>;
  /** Clears the failures after a success. */
  succeededLogin(id: string): Promise<void>;
  startSession(idHash: string, staffId: string, now: number): Promise<void>;
  /** The session of a digest with its account, or undefined. */
  session(idHash: string): Promise<StaffSession | undefined>;
  /** Marks a session seen now (its idle time starts again). */
  touchSession(idHash: string, now: number): Promise<void>;
  endSession(idHash: string): Promise<void>;
  audit(entry: AuditEntry, now: number): Promise<void>;
  /** The audit log newest first, `limit` entries before `before` (ms), with each account's address. */
  auditLog(limit: number, before?: { at: number; id: string }): Promise<AuditRecord[]>;
  /** When an account last looked at each form's list, by form. */
  lastSeen(staffId: string): Promise<Record<string, number>>;
  markSeen(staffId: string, form: string, now: number): Promise<void>;
  /** Marks a submission answered (once: a second mark keeps the first). */
  markAnswered(form: string, about: string, staffId: string, now: number): Promise<void>;
  /** A form's submissions stored at or after each time, by key. */
  counts(table: string, since: Record<string, string>): Promise<Record<string, number>>;
  /** A page of a list, newest first, after the cursor. */
  list(query: ListQuery, limit: number, after?: ListCursor): Promise<ListedRow[]>;
  /** A submission with its mark, or undefined. */
  listed(table: string, id: string): Promise<ListedRow | undefined>;
  /** The notifications kept as suppressed since a summary was enqueued (docs/beheer.md §5), by the summary's id. */
  suppressedNotifications(summaryId: string): Promise<number>;
  /** The kind and state of a submission's e-mails in the outbox (docs/operations.md §12), oldest first. */
  mailStates(about: string): Promise<Array<{ kind: string; state: string }>>;
  /**
   * Deletes what beheer keeps past its time (docs/beheer.md §7): audit entries before
   * `auditBefore`, sessions idle or old past their limits, links used or expired.
   * @returns how many rows went
   */
  sweep(now: number, auditBefore: number, idleMs: number, absoluteMs: number): Promise<number>;
}

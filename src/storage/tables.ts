/**
 * The tables as Kysely sees them (docs/operations.md §3), after the last migration. Times of the
 * outbox are ms since the epoch on the database's clock; a form's `created_at` is ISO text on
 * SQLite and `timestamptz` on PostgreSQL (both compare with an ISO string); a list is JSON text.
 */

/** A stored form submission: its id, submission key, time and the columns its form keeps. */
export interface SubmissionTable {
  id: string;
  submission_key: string;
  created_at: string | Date;
  [column: string]: string | number | null | Date;
}

/** The outbox (docs/operations.md §12): a message kind and the id of the row it is about. */
export interface OutboxTable {
  id: string;
  kind: string;
  about: string;
  /** SHA-256 of the address (src/storage/recipient.ts). */
  recipient: string;
  state: 'pending' | 'sent' | 'set_aside' | 'suppressed';
  attempts: number;
  due_at: number;
  lease: string | null;
  leased_until: number | null;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
}

/** The tables the storage layer itself queries; a form's table is a {@link SubmissionTable} by its name (docs/forms.md §8). */
export interface Tables {
  outbox: OutboxTable;
  rate_limits: { key: string; hits: number; reset_at: number };
  settings: { name: string; value: string };
  count_shards: { name: string; shard: number; value: number };
  staff: StaffTable;
  staff_links: { token_hash: string; id: string; staff_id: string; sealed: string | null; expires_at: number; used_at: number | null };
  staff_sessions: { id_hash: string; staff_id: string; created_at: number; seen_at: number };
  audit_log: { id: string; at: number; staff_id: string | null; action: string; form: string | null; about: string | null; detail: string | null; address: string | null };
  staff_views: { staff_id: string; form: string; seen_at: number };
  answered: { about: string; form: string; staff_id: string; at: number };
  recipient_sends: { recipient: string; created_at: number };
}

/** A staff account (docs/beheer.md §1): times in ms since the epoch; the password only as its scrypt hash. */
export interface StaffTable {
  id: string;
  email: string;
  role: string;
  password_hash: string | null;
  disabled_at: number | null;
  failures: number;
  lockouts: number;
  locked_until: number | null;
  created_at: number;
}

/**
 * SQLite migration 6: the outbox knows each message's recipient, as a digest of the address
 * (src/storage/recipient.ts), so that no address gets more than 3 e-mails in 24 hours, and keeps the
 * ones over that as `suppressed` (docs/operations.md §12). SQLite cannot widen a CHECK: the table is
 * made anew with its rows (nothing refers to it).
 */
export default `
CREATE TABLE outbox_new (
  id TEXT PRIMARY KEY,
  registration_id TEXT REFERENCES registrations (id) ON DELETE CASCADE,
  contact_message_id TEXT REFERENCES contact_messages (id) ON DELETE CASCADE,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'set_aside', 'suppressed')),
  recipient TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  due_at INTEGER NOT NULL,
  lease TEXT,
  leased_until INTEGER,
  last_error TEXT,
  created_at TEXT NOT NULL,
  sent_at TEXT,
  CHECK ((registration_id IS NULL) <> (contact_message_id IS NULL))
);
INSERT INTO outbox_new (id, registration_id, contact_message_id, state, attempts, due_at, lease, leased_until, last_error, created_at, sent_at)
  SELECT id, registration_id, contact_message_id, state, attempts, due_at, lease, leased_until, last_error, created_at, sent_at FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_due ON outbox (due_at) WHERE state = 'pending';
CREATE INDEX outbox_registration ON outbox (registration_id);
CREATE INDEX outbox_contact_message ON outbox (contact_message_id);
CREATE INDEX outbox_recipient ON outbox (recipient, created_at);
`;

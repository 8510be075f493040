/**
 * SQLite migration 4: the outbox (docs/operations.md §12). A message is about one registration or
 * one contact message and goes with it (erasure, retention: foreign keys are on); its text is
 * composed when it is sent, so the outbox holds no copy of personal data. `due_at` and
 * `leased_until` are milliseconds since the epoch; the other times ISO text, as elsewhere.
 */
export default `
CREATE TABLE outbox (
  id TEXT PRIMARY KEY,
  registration_id TEXT REFERENCES registrations (id) ON DELETE CASCADE,
  contact_message_id TEXT REFERENCES contact_messages (id) ON DELETE CASCADE,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'set_aside')),
  attempts INTEGER NOT NULL DEFAULT 0,
  due_at INTEGER NOT NULL,
  lease TEXT,
  leased_until INTEGER,
  last_error TEXT,
  created_at TEXT NOT NULL,
  sent_at TEXT,
  CHECK ((registration_id IS NULL) <> (contact_message_id IS NULL))
);
CREATE INDEX outbox_due ON outbox (due_at) WHERE state = 'pending';
CREATE INDEX outbox_registration ON outbox (registration_id);
CREATE INDEX outbox_contact_message ON outbox (contact_message_id);
`;

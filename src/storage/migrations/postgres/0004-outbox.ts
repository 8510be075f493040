/**
 * PostgreSQL migration 4: the outbox (docs/operations.md §12). A message is about one registration
 * or one contact message and goes with it (erasure, retention); its text is composed when it is
 * sent, so the outbox holds no copy of personal data. Times are the database's, so the leases of
 * several instances agree.
 */
export default `
CREATE TABLE outbox (
  id UUID PRIMARY KEY,
  registration_id UUID REFERENCES registrations (id) ON DELETE CASCADE,
  contact_message_id UUID REFERENCES contact_messages (id) ON DELETE CASCADE,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'set_aside')),
  attempts INTEGER NOT NULL DEFAULT 0,
  due_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  lease UUID,
  leased_until TIMESTAMPTZ,
  last_error TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  sent_at TIMESTAMPTZ,
  CHECK ((registration_id IS NULL) <> (contact_message_id IS NULL))
);
CREATE INDEX outbox_due ON outbox (due_at) WHERE state = 'pending';
CREATE INDEX outbox_registration ON outbox (registration_id);
CREATE INDEX outbox_contact_message ON outbox (contact_message_id);
`;

/**
 * PostgreSQL migration 6: the outbox knows each message's recipient, as a digest of the address
 * (src/storage/recipient.ts), so that no address gets more than 3 e-mails in 24 hours, and keeps the
 * ones over that as `suppressed` (docs/operations.md §12).
 */
export default `
ALTER TABLE outbox ADD COLUMN recipient TEXT;
ALTER TABLE outbox DROP CONSTRAINT outbox_state_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_state_check CHECK (state IN ('pending', 'sent', 'set_aside', 'suppressed'));
CREATE INDEX outbox_recipient ON outbox (recipient, created_at);
`;

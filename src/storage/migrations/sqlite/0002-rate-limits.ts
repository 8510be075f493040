/** SQLite migration 2: rate-limit counters every instance on the file shares (docs/forms.md §7). */
export default `
CREATE TABLE rate_limits (key TEXT PRIMARY KEY, hits INTEGER NOT NULL, reset_at INTEGER NOT NULL);
`;

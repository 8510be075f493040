/** SQLite migration 3: contact messages (one per submission key; docs/forms.md §9). */
export default `
CREATE TABLE contact_messages (
  id TEXT PRIMARY KEY,
  submission_key TEXT NOT NULL UNIQUE,
  naam TEXT NOT NULL,
  email TEXT NOT NULL,
  onderwerp TEXT NOT NULL,
  bericht TEXT NOT NULL,
  created_at TEXT NOT NULL
);
`;

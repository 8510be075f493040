/** PostgreSQL migration 3: contact messages (one per submission key; docs/forms.md §9). */
export default `
CREATE TABLE contact_messages (
  id UUID PRIMARY KEY,
  submission_key UUID NOT NULL UNIQUE,
  naam TEXT NOT NULL,
  email TEXT NOT NULL,
  onderwerp TEXT NOT NULL,
  bericht TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
`;

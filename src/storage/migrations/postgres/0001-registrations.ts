/** PostgreSQL migration 1: registrations (one per submission key) and settings. */
export default `
CREATE TABLE registrations (
  id UUID PRIMARY KEY,
  submission_key UUID NOT NULL UNIQUE,
  naam TEXT NOT NULL,
  email TEXT NOT NULL,
  website TEXT,
  referentie TEXT,
  gebruikersnaam TEXT NOT NULL,
  landcode TEXT NOT NULL,
  interesses TEXT[] NOT NULL,
  personen INTEGER NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

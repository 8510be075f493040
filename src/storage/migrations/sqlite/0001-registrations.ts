/** SQLite migration 1: registrations (one per submission key) and settings. */
export default `
CREATE TABLE registrations (
  id TEXT PRIMARY KEY,
  submission_key TEXT NOT NULL UNIQUE,
  naam TEXT NOT NULL,
  email TEXT NOT NULL,
  website TEXT,
  referentie TEXT,
  gebruikersnaam TEXT NOT NULL,
  landcode TEXT NOT NULL,
  interesses TEXT NOT NULL,
  personen INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

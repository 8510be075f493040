/**
 * SQLite migration 5: the number of registrations kept beside them, so that `/` reads one row
 * instead of counting every registration on every request (docs/operations.md §3). Triggers keep
 * it in step with every insert and delete, whoever makes them; it starts from the rows there are.
 */
export default `
CREATE TABLE counts (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT INTO counts (name, value) SELECT 'registrations', count(*) FROM registrations;
CREATE TRIGGER registrations_counted_in AFTER INSERT ON registrations BEGIN
  UPDATE counts SET value = value + 1 WHERE name = 'registrations';
END;
CREATE TRIGGER registrations_counted_out AFTER DELETE ON registrations BEGIN
  UPDATE counts SET value = value - 1 WHERE name = 'registrations';
END;
`;

/**
 * PostgreSQL migration 5: the number of registrations kept beside them, so that `/` reads one row
 * instead of counting every registration on every request (docs/operations.md §3). Statement
 * triggers keep it in step with every insert and delete, whoever makes them (a retention run's
 * thousands of rows are one update); it starts from the rows there are.
 */
export default `
CREATE TABLE counts (name TEXT PRIMARY KEY, value BIGINT NOT NULL);
INSERT INTO counts (name, value) SELECT 'registrations', count(*) FROM registrations;
CREATE FUNCTION count_registrations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE counts SET value = value + (SELECT count(*) FROM changed) WHERE name = 'registrations';
  ELSE
    UPDATE counts SET value = value - (SELECT count(*) FROM changed) WHERE name = 'registrations';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER registrations_counted_in AFTER INSERT ON registrations REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_registrations();
CREATE TRIGGER registrations_counted_out AFTER DELETE ON registrations REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_registrations();
`;

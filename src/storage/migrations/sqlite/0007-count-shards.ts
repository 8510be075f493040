/**
 * SQLite migration 7: the number of registrations moves to `count_shards`, the table PostgreSQL
 * keeps it in (one row here: SQLite has one writer at a time), so both engines read it with one
 * query (docs/operations.md §3).
 */
export default `
CREATE TABLE count_shards (
  name TEXT NOT NULL,
  shard INTEGER NOT NULL,
  value INTEGER NOT NULL,
  PRIMARY KEY (name, shard)
);
INSERT INTO count_shards (name, shard, value) SELECT name, 0, value FROM counts;
DROP TRIGGER registrations_counted_in;
DROP TRIGGER registrations_counted_out;
CREATE TRIGGER registrations_counted_in AFTER INSERT ON registrations BEGIN
  UPDATE count_shards SET value = value + 1 WHERE name = 'registrations' AND shard = 0;
END;
CREATE TRIGGER registrations_counted_out AFTER DELETE ON registrations BEGIN
  UPDATE count_shards SET value = value - 1 WHERE name = 'registrations' AND shard = 0;
END;
DROP TABLE counts;
`;

/**
 * PostgreSQL migration 7: the number of registrations kept in 64 rows, one per connection
 * (`pg_backend_pid() % 64`), and read as their sum (docs/operations.md §3). With one row, every
 * insert's trigger locked it until its transaction committed, so the saves of every instance took
 * their turns on it; now concurrent saves on different connections update different rows.
 */
export default `
CREATE TABLE count_shards (
  name TEXT NOT NULL,
  shard INTEGER NOT NULL,
  value BIGINT NOT NULL,
  PRIMARY KEY (name, shard)
);
INSERT INTO count_shards (name, shard, value) SELECT name, 0, value FROM counts;
CREATE OR REPLACE FUNCTION count_registrations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO count_shards AS c (name, shard, value)
    VALUES ('registrations', pg_backend_pid() % 64, (SELECT count(*) FROM changed) * CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END)
    ON CONFLICT (name, shard) DO UPDATE SET value = c.value + EXCLUDED.value;
  RETURN NULL;
END $$;
DROP TABLE counts;
`;

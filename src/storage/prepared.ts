/**
 * Queries built with Kysely once and compiled once (docs/operations.md §3): building and compiling
 * a query costs more than SQLite takes to run it, and a form post runs several
 * (docs/performance.md §4). A parameter is a named marker in the built query, filled per call.
 */
import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely';

/** A named parameter of a prepared query. */
class Parameter {
  constructor(readonly name: string) {}
}

/**
 * A marker for a value given per call, typed as the column it stands for.
 * @param name its key in the call's arguments
 */
export function param<T = never>(name: string): T {
  return new Parameter(name) as unknown as T;
}

/** A query compiled once, run with the arguments of each call. */
export type Prepared<R> = (db: Pick<Kysely<unknown>, 'executeQuery'>, args?: Record<string, unknown>) => Promise<QueryResult<R>>;

/**
 * Compiles a query once.
 * @param query a Kysely query whose per-call values are {@link param} markers
 * @returns run(db, args): the query on `db` (the database or a transaction) with `args` in place
 *   of the markers
 * @throws Error at run time when an argument a marker names is missing
 */
export function prepare<R>(query: Compilable<R>): Prepared<R> {
  const { sql, parameters } = query.compile();
  return (db, args = {}) =>
    db.executeQuery<R>(
      CompiledQuery.raw(
        sql,
        parameters.map((value) => {
          if (!(value instanceof Parameter)) return value;
          if (!(value.name in args)) throw new Error(`No value for the query's parameter "${value.name}"`);
          return args[value.name];
        }),
      ),
    );
}

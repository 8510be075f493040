/**
 * A throw-away PostgreSQL cluster for the tests: Debian's `initdb` and `pg_ctl`
 * (installed by `npm test`, see scripts/ensure-test-tools.mjs), a temporary folder, a free
 * loopback port, no systemd; stopped and removed afterwards. As root, the server programs run
 * as the `postgres` user (PostgreSQL refuses to run as root).
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './app.js';
import { useResource } from './suite.js';

const run = promisify(execFile);

/** The server programs: `PG_BIN`, else the newest /usr/lib/postgresql/<major>/bin. */
function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((d) => existsSync(join(root, d, 'bin', 'initdb'))) : [];
  if (majors.length === 0) throw new Error('PostgreSQL server programs not found: run "npm test" as root once (it installs Debian\'s postgresql) or set PG_BIN');
  return join(root, majors.sort((a, b) => Number(b) - Number(a))[0]!, 'bin');
}


/** A running cluster. */
export interface TestPostgres {
  /** Connection URL of the `postgres` database, as the cluster's superuser `eiland`. */
  url: string;
  port: number;
  /** Creates a fresh, empty database and returns its URL. */
  createDatabase(): Promise<string>;
  /** Stops the server (fast shutdown); `start()` brings it back on the same port and data. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  remove(): Promise<void>;
}

/**
 * Starts a new cluster on 127.0.0.1 at a free port.
 * @throws Error when the server programs are missing or the server does not start
 */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  const dir = await mkdtemp(join(tmpdir(), 'eiland-pg-'));
  const data = join(dir, 'data');
  const asRoot = userInfo().uid === 0;
  // As root: the folder belongs to postgres, and every server program runs as postgres.
  const program = async (name: string, args: string[]) => {
    const file = join(bin, name);
    return asRoot ? run('runuser', ['-u', 'postgres', '--', file, ...args], { cwd: dir }) : run(file, args, { cwd: dir });
  };
  if (asRoot) {
    await chmod(dir, 0o755);
    const { uid, gid } = (await run('id', ['-u', 'postgres']).then(async ({ stdout }) => ({ uid: Number(stdout), gid: Number((await run('id', ['-g', 'postgres'])).stdout) })));
    await chown(dir, uid, gid);
  }
  await program('initdb', ['-D', data, '-U', 'eiland', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const start = async () => void (await program('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']));
  const stop = async () => void (await program('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => undefined));
  await start();
  const url = `postgres://eiland@127.0.0.1:${port}/postgres`;
  let databases = 0;
  return {
    url,
    port,
    async createDatabase() {
      const name = `eiland_${process.pid}_${++databases}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://eiland@127.0.0.1:${port}/${name}`;
    },
    stop,
    start,
    async remove() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Registers `before`/`after` hooks in the current suite (or file) that start a cluster
 * ({@link startPostgres}) and remove it.
 * @returns the cluster, valid inside the suite's tests (each member is read from it)
 * @throws Error when a member is read outside the suite's tests, naming the member
 */
export function usePostgres(): TestPostgres {
  return useResource('usePostgres()', startPostgres, (cluster) => cluster.remove());
}

/**
 * Locks a database's registrations and their count (ACCESS EXCLUSIVE) from a connection of its
 * own, so every count and insert waits on it: requests are held in flight by the real database,
 * with no seam in the app.
 * @param url the database's connection URL
 * @returns `release()`: commits and disconnects (only once, however often it is called)
 */
export async function lockRegistrations(url: string): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query('LOCK TABLE registrations, count_shards IN ACCESS EXCLUSIVE MODE');
  } catch (error) {
    await client.end();
    throw error;
  }
  let released: Promise<void> | undefined;
  return () => (released ??= client.query('COMMIT').then(() => client.end()));
}

/**
 * How many inserts into registrations wait on a lock now (as {@link lockRegistrations} holds):
 * form posts whose bodies were read, held in flight by the database.
 * @param url the database's connection URL
 */
export async function insertsWaiting(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE 'insert into "registrations"%'`,
    );
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

// Beheer's lists with 100 000 registrations (docs/beheer.md §8, docs/performance.md §2; `node
// bench/run.mjs --beheer`): on SQLite and on PostgreSQL, a fresh database filled with 100 000
// registrations (names with accents, each interest, a spread of dates), one instance of the
// server in this process, a beheerder signed in, and three pages of /beheer/registration asked
// one after another: the first page, a search and a filtered page (an interest and a date
// range). Each is asked 20 times to warm up, then 200 times; the figures are the latencies' p50
// and p99 in ms, as the client sees them on loopback: the server's time and one round trip. Then
// the first page, signed in, is loaded at 32 connections for `seconds` (autocannon, as
// bench/measure.mjs loads the public pages): its requests a second beside theirs. And the CSV
// export of every row: its time, its size, and the rise of the process's RSS while it streams
// (run with --expose-gc, as `npm run bench` does, the rise is the export's own).
//
//   node --import tsx --import ./src/env.ts bench/beheer-lists.ts [--rows N] [--engines sqlite,postgres] [--seconds S]
//   (from the repository root)
//
// Prints one JSON line (BeheerListFigures) on stdout, progress on stderr.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { FORMS, formMigrations } from '../src/forms/index.js';
import { startServer } from '../src/server.js';
import { openPostgres, openSqlite, type Storage } from '../src/storage/index.js';
import { signIn, get } from '../test/helpers/beheer.js';
import { startPostgres } from '../test/helpers/postgres.js';
import { testAssets } from '../test/helpers/test-dist.js';

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '100000' }, engines: { type: 'string', default: 'sqlite,postgres' }, seconds: { type: 'string', default: '10' } } });
const ROWS = Number(args.rows);
const progress = (line: string) => process.stderr.write(`… ${line}\n`);

/** The pages asked, by name. */
const PAGES = {
  first: '/beheer/registration',
  // Few rows far back match: the search reads nearly the whole table.
  search: '/beheer/registration?q=OMER%20DE%20VRIES%20100',
  filtered: '/beheer/registration?interesses=muziek&van=2026-06-01&tot=2026-06-30',
};

/**
 * The rows as one INSERT … SELECT over a series of n: a name with accents and a number, an
 * address of its own, an interest of five, 1–10 persons, a time spread over a year.
 * @param series `n` from 1 to ROWS, as each engine writes it
 */
const fill = (engine: 'sqlite' | 'postgres') => {
  const uuid = engine === 'sqlite' ? "lower(printf('%08x-%04x-4%03x-a%03x-%012x', n, n % 65536, n % 4096, n % 4096, n))" : "md5(n::text)::uuid";
  const key = engine === 'sqlite' ? "lower(printf('%08x-%04x-4%03x-b%03x-%012x', n, n % 65536, n % 4096, n % 4096, n))" : "md5('k' || n::text)::uuid";
  const cat = (...parts: string[]) => (engine === 'sqlite' ? parts.join(' || ') : `concat(${parts.join(', ')})`);
  const at = engine === 'sqlite' ? "strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || (n * 315) || ' seconds')" : "timestamptz '2026-01-01T00:00:00Z' + (n * 315) * interval '1 second'";
  const interest = "(CASE n % 5 WHEN 0 THEN '[\"techniek\"]' WHEN 1 THEN '[\"cultuur\"]' WHEN 2 THEN '[\"sport\"]' WHEN 3 THEN '[\"natuur\"]' ELSE '[\"muziek\"]' END)";
  const newline = engine === 'sqlite' ? 'char(10)' : 'chr(10)';
  // What a save stores as search_text: the name and the address folded (src/storage/fold.ts).
  const searched = cat("(CASE n % 3 WHEN 0 THEN 'zoe jansen ' WHEN 1 THEN 'omer de vries ' ELSE 'anna bakker ' END)", 'n', newline, "'persoon'", 'n', "'@voorbeeld.nl'");
  return `INSERT INTO registrations (id, submission_key, naam, email, website, referentie, gebruikersnaam, landcode, interesses, personen, search_text, created_at)
    SELECT ${uuid}, ${key}, ${cat("(CASE n % 3 WHEN 0 THEN 'Zoë Jansen ' WHEN 1 THEN 'Ömer de Vries ' ELSE 'Anna Bakker ' END)", 'n')}, ${cat("'persoon'", 'n', "'@voorbeeld.nl'")}, NULL, NULL, ${cat("'gebruiker_'", 'n')}, 'NL', ${interest}, 1 + n % 10, ${searched}, ${at}`;
};

/** Asks a page `times` times one after another. @returns the latencies in ms */
async function ask(app: Parameters<typeof get>[0], path: string, signed: Parameters<typeof get>[2], times: number): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    const res = await get(app, path, signed);
    ms.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  }
  return ms;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 10) / 10;
};

/** Measures the pages on an opened storage. */
async function measure(storage: Storage): Promise<Record<string, { p50: number; p99: number; rps?: number }>> {
  const config = loadConfig({ PORT: '0', LOG_LEVEL: 'silent', CSRF_SECRET: 'bench-secret-bench-secret-bench-secret-01', FORM_RATE_LIMIT: '1000/1m' });
  const running = await startServer(config, { storage, forms: FORMS, assets: testAssets() });
  try {
    const app = { port: Number(new URL(running.url).port), url: running.url, storage };
    const signed = await signIn(app, 'reader');
    const figures: Record<string, { p50: number; p99: number; rps?: number }> = {};
    for (const [name, path] of Object.entries(PAGES)) {
      await ask(app, path, signed, 20);
      const ms = await ask(app, path, signed, 200);
      figures[name] = { p50: percentile(ms, 50), p99: percentile(ms, 99) };
      progress(`${name}: p50 ${figures[name]!.p50} ms, p99 ${figures[name]!.p99} ms`);
    }
    // The export of every row, streamed: its time, its size, and how far the process's RSS rose
    // above what it was before (sampled every 10 ms): flat memory is a rise that does not grow
    // with the rows.
    (globalThis as { gc?: () => void }).gc?.();
    const rssBefore = process.memoryUsage.rss();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), 10);
    const exportStarted = performance.now();
    const exported = await fetch(`${running.url}/beheer/registration/export`, { headers: { Cookie: signed.cookie } });
    let bytes = 0;
    for await (const chunk of exported.body!) bytes += (chunk as Uint8Array).length;
    clearInterval(sampler);
    const exportFigures = { seconds: Math.round((performance.now() - exportStarted) / 100) / 10, mb: Math.round(bytes / 1e5) / 10, rssRiseMb: Math.round((rssPeak - rssBefore) / 1e5) / 10 };
    progress(`export of every row: ${exportFigures.seconds} s, ${exportFigures.mb} MB, RSS up ${exportFigures.rssRiseMb} MB`);
    const url = `${running.url}${PAGES.first}`;
    const headers = { Cookie: signed.cookie };
    await autocannon({ url, connections: 32, duration: 2, headers });
    const loaded = await autocannon({ url, connections: 32, duration: Number(args.seconds), headers });
    if (loaded.non2xx > 0 || loaded.errors > 0) throw new Error(`${PAGES.first} under load: ${loaded.non2xx} answers not 2xx, ${loaded.errors} errors`);
    figures.first!.rps = Math.round(loaded.requests.average);
    progress(`first, 32 connections: ${figures.first!.rps} req/s`);
    return { ...figures, export: exportFigures } as never;
  } finally {
    await running.shutdown('bench');
  }
}

const figures: Record<string, unknown> = { rows: ROWS };
for (const engine of args.engines.split(',')) {
  if (engine === 'sqlite') {
    const dir = await mkdtemp(join(tmpdir(), 'eiland-beheer-'));
    try {
      const file = join(dir, 'eiland.db');
      await (await openSqlite(file, formMigrations())).close();
      progress(`SQLite: filling ${ROWS} registrations`);
      const db = new Database(file);
      db.exec(`WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${ROWS}) ${fill('sqlite').replace('SELECT', 'SELECT').replace(/\n\s+SELECT/, ' SELECT')} FROM s`);
      db.close();
      figures.sqlite = await measure(await openSqlite(file, formMigrations()));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  } else {
    const cluster = await startPostgres();
    try {
      const url = await cluster.createDatabase();
      await (await openPostgres({ url, poolSize: 2 }, formMigrations())).close();
      progress(`PostgreSQL: filling ${ROWS} registrations`);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`${fill('postgres')} FROM generate_series(1, ${ROWS}) AS n`);
      await client.query('ANALYZE registrations');
      await client.end();
      figures.postgres = await measure(await openPostgres({ url, poolSize: 10 }, formMigrations()));
    } finally {
      await cluster.remove();
    }
  }
}
process.stdout.write(`${JSON.stringify(figures)}\n`);

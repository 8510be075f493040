// The PostgreSQL phase of the benchmark (docs/performance.md §2; `node bench/run.mjs --postgres`):
// form posts through the reference nginx (deploy/nginx-eiland.conf, docs/operations.md §8) to two
// instances of the production bundle on one fresh PostgreSQL database, set up as
// test/nginx.test.ts sets them up (DATABASE_URL, TRUST_PROXY=loopback, PUBLIC_ORIGIN the nginx
// origin, a high FORM_RATE_LIMIT; the CSRF secret from the database, metrics off).
//
// The forms are sized from a probe's measured rate (8 per connection posted at once), 1.5 times
// what the run needs at it (or at --expected-rps, if higher), so the run does not run dry.
// Every post is a valid registration from a form fetched through nginx beforehand (its token,
// cookie and submission key: bench/measure.mjs `formPost`), at an address of its own (one address
// gets 3 e-mails a day), from a loopback client address of its own. They are posted `connections`
// at once for 2 s of warm-up and then `seconds`, as bench/measure.mjs `loadPosts` posts them; the
// loop is written out here because every answer is counted, the warm-up's too: afterwards the
// database must hold exactly as many registrations as posts were answered 303, and the count `/`
// shows (the sum of `count_shards`) must be that number.
//
//   node --import tsx --import ./src/env.ts bench/postgres-posts.ts --seconds S --connections 64 [--expected-rps R]
//   (from the repository root, after `node build.mjs`)
//
// Prints one JSON line (PostgresPostsFigures) on stdout, progress on stderr; exits 1 when it could
// not measure (`error` set), 2 on wrong arguments. Every wait is bounded; on SIGTERM or SIGINT it
// stops what it started and exits.
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freePort } from '../scripts/started-port.mjs';
import { startNginx, type TestNginx } from '../test/helpers/nginx.js';
import { startPostgres, type TestPostgres } from '../test/helpers/postgres.js';
import { fetchRaw } from './page-scripts.mjs';

/** A running instance, as bench/servers.mjs `startServer` gives it. */
interface Started {
  port: number;
  pid: number;
  stop(): Promise<void>;
}
/**
 * The parts of bench/measure.mjs and bench/servers.mjs used here. Imported by a computed name, so
 * that a type check of this file does not take in those modules, which are not written for the
 * strict checker (bench/page-scripts.mjs is: the tests import it).
 */
const { formPost, cpuMs, quiet } = (await import(new URL('./measure.mjs', import.meta.url).href)) as {
  formPost(port: number, email: string): Promise<{ headers: Record<string, string>; body: string }>;
  cpuMs(pid: number): number;
  quiet(pids: number[]): Promise<void>;
};
const { deployment, startServer } = (await import(new URL('./servers.mjs', import.meta.url).href)) as {
  deployment(): Promise<{ dir: string; dbFile: string; remove(): Promise<void> }>;
  startServer(kind: 'eiland', deployed: { dir: string; dbFile: string }, options: { env: Record<string, string> }): Promise<Started>;
};

/** What the phase reports. Times in ms, rates a second of the measured run. */
export interface PostgresPostsFigures {
  seconds: number;
  connections: number;
  instances: number;
  /** Measured posts answered 303, a second (`seconds`). */
  registrationsPerS: number;
  /** Measured posts sent, a second, whatever their answer. */
  postsPerS: number;
  p50: number;
  p99: number;
  /** Measured posts answered other than 303 (0: no answer within {@link REQUEST_MS}, or the connection failed). */
  errors: number;
  /** Measured posts answered 5xx. */
  errors5xx: number;
  /** Answers by status, `0` for none: the measured run's and the warm-up's. */
  statuses: { measured: Record<string, number>; warmup: Record<string, number> };
  /** Posts sent: the warm-up's and the measured run's. */
  posts: { warmup: number; measured: number };
  /** Posts answered 303, warm-up and measured run together. */
  answered303: number;
  /** `SELECT count(*) FROM registrations` after the run. */
  rowsStored: number | null;
  /** The count `/` shows: `SELECT coalesce(sum(value), 0) FROM count_shards WHERE name = 'registrations'`. */
  countShown: number | null;
  /** The count in the HTML of `/` fetched twice through nginx after the run (once per instance, round robin). */
  countOnHome: Array<number | null>;
  /** rowsStored === answered303. */
  rowsMatch: boolean;
  /** countShown === rowsStored, and every countOnHome too. */
  countAgrees: boolean;
  /** Forms fetched through nginx before the run, and the time that took (s). */
  formsPrepared: number;
  prepareS: number | null;
  /** Both instances' CPU time (all threads, /proc) per post answered 303 in the measured run, its e-mail included, ms. */
  cpuMsPerPost?: number;
  /** Posts a second of the probe that sized the run's forms (its posts are counted with the warm-up's). */
  probeRps?: number;
  /** Forms left when the run ended (0: it ran out, though sized from the probe). */
  formsLeft: number;
  error?: string;
}

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '64' },
    'expected-rps': { type: 'string', default: '500' },
  },
});
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
/** Forms are fetched for this many posts a second over the warm-up and the run. */
const EXPECTED_RPS = Number(args['expected-rps']);
if (!(SECONDS > 0) || !Number.isInteger(CONNECTIONS) || CONNECTIONS < 1 || !(EXPECTED_RPS > 0)) {
  process.stderr.write('usage: node --import tsx --import ./src/env.ts bench/postgres-posts.ts --seconds S --connections N [--expected-rps R]\n');
  process.exit(2);
}
const WARMUP_S = 2;
/** A request (a form's GET, a post) without an answer after this long is given up. */
const REQUEST_MS = 15_000;
/** Bounds of stopping what was started. */
const STOP_MS = 15_000;

const progress = (line: string) => process.stderr.write(`… postgres: ${line}\n`);

/**
 * Settles as `promise` does, or rejects once `ms` have passed.
 * @throws Error naming `what` when it took longer
 */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not done within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** A loopback address for one post, none used twice in a run: 127.2.0.1, 127.2.0.2, … (never .0 or .255). */
let addresses = 0;
function ownAddress(): string {
  const n = addresses++;
  const host = (n % 254) + 1;
  const rest = Math.floor(n / 254);
  return `127.${2 + Math.floor(rest / 256)}.${rest % 256}.${host}`;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)]!;
};
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const tally = (statuses: number[]) => {
  const counts: Record<string, number> = {};
  for (const s of statuses) counts[String(s)] = (counts[String(s)] ?? 0) + 1;
  return counts;
};

/** The number in `/`'s count sentence (views/pages/Start.tsx), or null when it has none. */
function countIn(html: string): number | null {
  if (html.includes('class="count">Er zijn nog geen aanmeldingen.')) return 0;
  if (html.includes('class="count">Er is 1 aanmelding.')) return 1;
  const many = /class="count">Er zijn (\d+) aanmeldingen\./.exec(html);
  return many ? Number(many[1]) : null;
}

let cluster: TestPostgres | undefined;
let deployed: Awaited<ReturnType<typeof deployment>> | undefined;
const instances: Started[] = [];
let nginx: TestNginx | undefined;

/** Stops an instance; one still running after {@link STOP_MS} is killed. */
async function stopInstance(server: Started): Promise<void> {
  await within(server.stop(), STOP_MS, `stopping the instance (pid ${server.pid})`).catch(() => {
    try {
      process.kill(server.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  });
}

let stopping: Promise<void> | undefined;
/** Stops everything started, in order (nginx, the instances, the cluster, the deployment), each wait bounded; once. */
function stopAll(): Promise<void> {
  stopping ??= (async () => {
    const step = async (what: string, work: () => Promise<unknown>) => {
      await within(work(), STOP_MS + 5000, what).catch((error: unknown) => progress(`${what} failed: ${error instanceof Error ? error.message : String(error)}`));
    };
    if (nginx) await step('stopping nginx', nginx.remove);
    await step('stopping the instances', () => Promise.all(instances.map(stopInstance)));
    if (cluster) await step('removing the PostgreSQL cluster', cluster.remove);
    if (deployed) await step('removing the deployment', deployed.remove);
  })();
  return stopping;
}
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    progress(`${signal}: stopping what was started`);
    void stopAll().finally(() => process.exit(1));
  });
}

const figures: PostgresPostsFigures = {
  seconds: SECONDS,
  connections: CONNECTIONS,
  instances: 2,
  registrationsPerS: 0,
  postsPerS: 0,
  p50: 0,
  p99: 0,
  errors: 0,
  errors5xx: 0,
  statuses: { measured: {}, warmup: {} },
  posts: { warmup: 0, measured: 0 },
  answered303: 0,
  rowsStored: null,
  countShown: null,
  countOnHome: [],
  rowsMatch: false,
  countAgrees: false,
  formsPrepared: 0,
  prepareS: null,
  formsLeft: 0,
};

try {
  // Metrics off, the CSRF secret from the database (so both instances read the one kept there),
  // e-mails to the deployment's .eml files.
  for (const name of ['METRICS_PORT', 'CSRF_SECRET', 'SMTP_URL']) delete process.env[name];

  progress('a PostgreSQL cluster and a fresh database');
  cluster = await startPostgres();
  const databaseUrl = await within(cluster.createDatabase(), REQUEST_MS, 'CREATE DATABASE');
  deployed = await deployment();

  // nginx's port first: it is the instances' PUBLIC_ORIGIN.
  const nginxPort = await freePort();
  const base = `http://127.0.0.1:${nginxPort}`;
  const env = { DATABASE_URL: databaseUrl, TRUST_PROXY: 'loopback', PUBLIC_ORIGIN: base, FORM_RATE_LIMIT: '10000/1m' };
  progress('two instances of dist/server/main.js on it');
  const started = await Promise.allSettled([0, 1].map(() => startServer('eiland', deployed!, { env })));
  for (const s of started) if (s.status === 'fulfilled') instances.push(s.value);
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  progress(`nginx (deploy/nginx-eiland.conf) at ${base} in front of ports ${instances.map((i) => i.port).join(' and ')}`);
  nginx = await startNginx([instances[0]!.port, instances[1]!.port], nginxPort);

  // Forms are fetched through nginx before they are posted, `connections` at a time: only posts
  // are timed. Each registers an address of its own.
  type Form = Awaited<ReturnType<typeof formPost>>;
  let registrants = 0;
  const prepare = async (count: number): Promise<Form[]> => {
    const prepared: Form[] = [];
    while (prepared.length < count) {
      const batch = await Promise.all(
        Array.from({ length: CONNECTIONS }, () => within(formPost(nginxPort, `pg.${++registrants}@voorbeeld.nl`), REQUEST_MS, 'GET /aanmelden')),
      );
      for (const form of batch) {
        if (!/(?:^|&)_csrf=[^&]/.test(form.body) || !/(?:^|&)_submission=[^&]/.test(form.body)) throw new Error('GET /aanmelden through nginx gave no form (no _csrf or _submission field)');
        prepared.push(form);
      }
    }
    return prepared;
  };
  const post = async (form: Form): Promise<number> => {
    const answer = await within(fetchRaw(nginxPort, '/aanmelden', { method: 'POST', headers: form.headers, body: form.body, localAddress: ownAddress() }), REQUEST_MS, 'POST /aanmelden').catch(() => ({ status: 0 }));
    return answer.status;
  };
  const warmup: number[] = [];

  // The run's forms sized from a measured rate, so it never runs dry: a probe of 8 forms per
  // connection posted at once (counted with the warm-up's posts), then 1.5 times what that rate,
  // or --expected-rps if higher, needs for the warm-up and the run.
  const probe = await prepare(CONNECTIONS * 8);
  const probing = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (probe.length > 0) warmup.push(await post(probe.pop()!));
  }));
  figures.probeRps = (CONNECTIONS * 8) / ((performance.now() - probing) / 1000);
  const needed = Math.ceil(Math.max(figures.probeRps, EXPECTED_RPS) * 1.5 * (SECONDS + WARMUP_S));
  progress(`${needed} forms fetched through nginx (GET /aanmelden, ${CONNECTIONS} at a time; the probe posted ${Math.round(figures.probeRps)}/s)`);
  const preparing = performance.now();
  const forms = await prepare(needed);
  figures.formsPrepared = forms.length;
  figures.prepareS = (performance.now() - preparing) / 1000;

  const measured: number[] = [];
  const latencies: number[] = [];
  const pids = instances.map((instance) => instance.pid);
  const used = () => pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
  let cpuBefore = 0;
  for (const [duration, isMeasured] of [[WARMUP_S, false], [SECONDS, true]] as const) {
    if (isMeasured) {
      await quiet(pids);
      cpuBefore = used();
    }
    progress(`POST /aanmelden through nginx at ${CONNECTIONS} connections, ${isMeasured ? `${SECONDS} s` : `${WARMUP_S} s of warm-up`}`);
    const until = performance.now() + duration * 1000;
    const worker = async () => {
      while (performance.now() < until && forms.length > 0) {
        const began = performance.now();
        const status = await post(forms.pop()!);
        if (!isMeasured) {
          warmup.push(status);
          continue;
        }
        latencies.push(performance.now() - began);
        measured.push(status);
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  }
  figures.formsLeft = forms.length;
  // Both instances' CPU time, from the run's start until they are quiet again (their e-mails sent),
  // per post answered 303; PostgreSQL's own processes are not counted.
  await quiet(pids);
  figures.cpuMsPerPost = (used() - cpuBefore) / Math.max(1, measured.filter((s) => s === 303).length);
  const ok = measured.filter((s) => s === 303).length;
  figures.registrationsPerS = ok / SECONDS;
  figures.postsPerS = measured.length / SECONDS;
  figures.p50 = median(latencies);
  figures.p99 = percentile(latencies, 99);
  figures.errors = measured.length - ok;
  figures.errors5xx = measured.filter((s) => s >= 500).length;
  figures.statuses = { measured: tally(measured), warmup: tally(warmup) };
  figures.posts = { warmup: warmup.length, measured: measured.length };
  figures.answered303 = ok + warmup.filter((s) => s === 303).length;

  // What the database holds, and what `/` shows.
  const client = new pg.Client({ connectionString: databaseUrl });
  await within(client.connect(), REQUEST_MS, 'connecting to the database');
  try {
    figures.rowsStored = Number((await within(client.query<{ n: string }>('SELECT count(*) AS n FROM registrations'), REQUEST_MS, 'counting the registrations')).rows[0]!.n);
    figures.countShown = Number(
      (await within(client.query<{ n: string }>("SELECT coalesce(sum(value), 0) AS n FROM count_shards WHERE name = 'registrations'"), REQUEST_MS, 'summing count_shards')).rows[0]!.n,
    );
  } finally {
    await within(client.end(), STOP_MS, 'disconnecting').catch(() => undefined);
  }
  for (let i = 0; i < 2; i++) {
    const home = await within(fetchRaw(nginxPort, '/'), REQUEST_MS, 'GET /');
    figures.countOnHome.push(home.status === 200 ? countIn(home.body.toString('utf8')) : null);
  }
  figures.rowsMatch = figures.rowsStored === figures.answered303;
  figures.countAgrees = figures.countShown === figures.rowsStored && figures.countOnHome.every((n) => n === figures.rowsStored);
  if (forms.length === 0) figures.error = `the run used every prepared form (${figures.formsPrepared}), sized from the probe's ${Math.round(figures.probeRps ?? 0)} posts/s`;
} catch (error) {
  figures.error = error instanceof Error ? error.message : String(error);
} finally {
  await stopAll();
}

process.stdout.write(`${JSON.stringify(figures)}\n`, () => process.exit(figures.error ? 1 : 0));

// Throughput and memory (product.md §13): the real server loaded with autocannon at 32
// connections on loopback, one page at a time after a 2 s warm-up, idle and peak RSS sampled
// from /proc. The server kinds run alternately in one session, a fresh server each round, and
// the medians of the rounds are reported (a shared machine drifts; alternation evens it out):
//   bundle  node dist/server/main.js (what `npm start` runs)
//   tsx     node --import tsx src/main.ts (what production ran before the bundle)
// Exits 1 when the bundle's peak RSS exceeds its budget.
// (The budget's Next.js and Astro comparison needs them built beside us: not here.)
//
//   node bench/throughput.mjs [bundle] [tsx]    (default: both)
//   BENCH_SECONDS per page (default 10), BENCH_ROUNDS (default 3)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RSS_BUDGET_MB = 150;
const PATHS = ['/', '/aanmelden', '/over'];
const SERVERS = {
  bundle: ['dist/server/main.js'],
  tsx: ['--import', 'tsx', '--import', './src/env.ts', 'src/main.ts'],
};
const chosen = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(SERVERS);

/** Starts a server kind; resolves with the process and its port once it listens. */
async function start(kind) {
  const env = { ...process.env, PORT: '0', LOG_LEVEL: 'info' };
  delete env.NODE_ENV; // production, as an operator runs it
  const server = spawn(process.execPath, SERVERS[kind], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    let buffer = '';
    server.stdout.on('data', (chunk) => {
      buffer += chunk;
      const started = /"event":"server_started"[^\n]*"port":(\d+)/.exec(buffer);
      if (started) resolve(Number(started[1]));
      if (buffer.length > 1e6) buffer = '';
    });
    server.on('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
  return { server, port };
}

const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** One round of one server kind: a fresh server, every page, idle and peak RSS. */
async function round(kind) {
  const { server, port } = await start(kind);
  await new Promise((r) => setTimeout(r, 1000));
  const idle = rssMb(server.pid);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid))), 250);
  const pages = {};
  for (const path of PATHS) {
    const url = `http://127.0.0.1:${port}${path}`;
    await autocannon({ url, connections: CONNECTIONS, duration: 2 }); // warm-up
    const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
    pages[path] = { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
  }
  clearInterval(sampler);
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  return { idle, peak, pages };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

console.log(`${CONNECTIONS} connections, ${SECONDS} s per page after a 2 s warm-up, ${ROUNDS} alternating rounds, loopback, ${new Date().toISOString().slice(0, 10)}`);
const rounds = Object.fromEntries(chosen.map((kind) => [kind, []]));
for (let i = 1; i <= ROUNDS; i++) {
  for (const kind of chosen) {
    const r = await round(kind);
    rounds[kind].push(r);
    console.log(`round ${i} ${kind}: ${PATHS.map((p) => `${p} ${Math.round(r.pages[p].rps)}`).join(', ')} req/s; RSS idle ${r.idle.toFixed(1)}, peak ${r.peak.toFixed(1)} MB`);
  }
}

const results = chosen.map((kind) => {
  const rs = rounds[kind];
  const pages = Object.fromEntries(
    PATHS.map((p) => [p, Object.fromEntries(['rps', 'p50', 'p99', 'errors'].map((k) => [k, median(rs.map((r) => r.pages[p][k]))]))]),
  );
  return { kind, idle: median(rs.map((r) => r.idle)), peak: median(rs.map((r) => r.peak)), pages };
});
console.log(`\nmedians of ${ROUNDS} rounds`);
console.log(['server', 'page', 'req/s', 'p50 ms', 'p99 ms', 'errors'].join('\t'));
for (const { kind, pages } of results) {
  for (const p of PATHS) console.log([kind, p, Math.round(pages[p].rps), pages[p].p50, pages[p].p99, pages[p].errors].join('\t'));
}
for (const { kind, idle, peak } of results) console.log(`${kind}: idle RSS ${idle.toFixed(1)} MB, peak RSS ${peak.toFixed(1)} MB`);

const bundle = results.find((r) => r.kind === 'bundle');
const tsx = results.find((r) => r.kind === 'tsx');
if (bundle && tsx) {
  console.log('bundle / tsx: ' + PATHS.map((p) => `${p} ${(bundle.pages[p].rps / tsx.pages[p].rps).toFixed(2)}×`).join(', ') + `, idle RSS ${(bundle.idle / tsx.idle).toFixed(2)}×, peak RSS ${(bundle.peak / tsx.peak).toFixed(2)}×`);
}
if (bundle && bundle.peak > RSS_BUDGET_MB) {
  console.error(`bundle peak RSS ${bundle.peak.toFixed(1)} MB is over the ${RSS_BUDGET_MB} MB budget (product.md §13)`);
  process.exit(1);
}

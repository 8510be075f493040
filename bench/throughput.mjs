// Throughput and memory (product.md §13): the real server loaded with autocannon at 32
// connections on loopback, one page at a time, idle and peak RSS sampled from /proc. Each server
// kind runs in the same process and session so they compare:
//   bundle  node dist/server/main.js (what `npm start` runs)
//   tsx     node --import tsx src/main.ts (what production ran before the bundle)
// Exits 1 when the bundle's peak RSS exceeds its budget.
// (The budget's Next.js and Astro comparison needs them built beside us: not here.)
//
//   node bench/throughput.mjs [bundle] [tsx]    (default: both; BENCH_SECONDS per page, default 10)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
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

const results = [];
console.log(`${CONNECTIONS} connections, ${SECONDS} s per page, loopback, ${new Date().toISOString().slice(0, 10)}`);
console.log(['server', 'page', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx'].join('\t'));
for (const kind of chosen) {
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
    pages[path] = { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
    console.log([kind, path, pages[path].rps, r.latency.p50, r.latency.p99, r.errors, r.non2xx].join('\t'));
  }
  clearInterval(sampler);
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  results.push({ kind, idle, peak, pages });
  console.log(`${kind}: idle RSS ${idle.toFixed(1)} MB, peak RSS ${peak.toFixed(1)} MB`);
}

const bundle = results.find((r) => r.kind === 'bundle');
const tsx = results.find((r) => r.kind === 'tsx');
if (bundle && tsx) {
  console.log('bundle / tsx: ' + PATHS.map((p) => `${p} ${(bundle.pages[p].rps / tsx.pages[p].rps).toFixed(2)}×`).join(', ') + `, peak RSS ${(bundle.peak / tsx.peak).toFixed(2)}×`);
}
if (bundle && bundle.peak > RSS_BUDGET_MB) {
  console.error(`bundle peak RSS ${bundle.peak.toFixed(1)} MB is over the ${RSS_BUDGET_MB} MB budget (product.md §13)`);
  process.exit(1);
}

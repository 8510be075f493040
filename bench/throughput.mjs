// Throughput and memory (product.md §13): the real server, started as `npm start`
// would, loaded with autocannon at 32 connections on loopback, one page at a
// time; peak RSS sampled from /proc. Exits 1 when RSS exceeds its budget.
// (The budget's Next.js and Astro comparison needs them built beside us: not here.)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RSS_BUDGET_MB = 150;
const PATHS = ['/', '/aanmelden', '/over'];

const server = spawn(process.execPath, ['--import', 'tsx', '--import', './src/env.ts', 'src/main.ts'], {
  env: { ...process.env, PORT: '0', NODE_ENV: 'production' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const port = await new Promise((resolve, reject) => {
  let buffer = '';
  server.stdout.on('data', (chunk) => {
    buffer += chunk;
    const started = /"event":"server_started"[^\n]*"port":(\d+)/.exec(buffer);
    if (started) resolve(Number(started[1]));
    if (buffer.length > 1e6) buffer = '';
  });
  server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
});

const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
let peak = rssMb();
const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 250);

console.log(`${CONNECTIONS} connections, ${SECONDS} s per page, loopback`);
console.log(['page', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx'].join('\t'));
for (const path of PATHS) {
  const result = await autocannon({ url: `http://127.0.0.1:${port}${path}`, connections: CONNECTIONS, duration: SECONDS });
  console.log([path, Math.round(result.requests.average), result.latency.p50, result.latency.p99, result.errors, result.non2xx].join('\t'));
}
clearInterval(sampler);
server.kill('SIGTERM');
console.log(`peak RSS ${peak.toFixed(1)} MB (budget ${RSS_BUDGET_MB} MB)`);
if (peak > RSS_BUDGET_MB) process.exit(1);

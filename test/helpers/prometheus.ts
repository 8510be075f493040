/**
 * Debian's Prometheus on loopback for the metrics tests (installed by `npm test`, see
 * scripts/ensure-test-tools.mjs): a real server scraping Eiland's metrics listener every second,
 * queried through its HTTP API, with its own data folder in a temporary directory.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './app.js';
import { startProcess } from './project.js';
import { waitFor } from './wait.js';

/** The Prometheus server program (`PROMETHEUS_PATH` overrides). */
const PROMETHEUS = process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus';
/** Its lint and format checker (`PROMTOOL_PATH` overrides). */
export const PROMTOOL = process.env.PROMTOOL_PATH ?? '/usr/bin/promtool';

/** A running Prometheus. */
export interface TestPrometheus {
  /** The value of an instant query that returns one series, or undefined when it returns none. */
  value(query: string): Promise<number | undefined>;
  /** Waits until the target has been scraped once more (a sample newer than now). */
  nextScrape(): Promise<void>;
  remove(): Promise<void>;
}

/**
 * Starts Prometheus scraping one target every second and waits for its first scrape.
 * @param target `host:port` of a metrics listener (path `/metrics`)
 * @throws Error with Prometheus's output when it does not scrape the target within 15 s
 */
export async function startPrometheus(target: string): Promise<TestPrometheus> {
  const dir = await mkdtemp(join(tmpdir(), 'eiland-prometheus-'));
  const port = await freePort();
  const config = join(dir, 'prometheus.yml');
  await writeFile(config, `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: eiland\n    static_configs:\n      - targets: ['${target}']\n`);
  const server = startProcess(PROMETHEUS, [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`], { cwd: dir, env: process.env });
  const remove = async () => {
    await server.stop('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  };
  const query = async (expr: string) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(expr)}`);
    const body = (await res.json()) as { status: string; data?: { result: Array<{ value: [number, string] }> }; error?: string };
    if (body.status !== 'success') throw new Error(`Prometheus query ${expr} failed: ${body.error}`);
    return body.data!.result;
  };
  const scrapedAfter = async (since: number) => {
    // timestamp() of the series itself: an operator in between would give the query's own time.
    const [stamp, up] = await Promise.all([query('timestamp(up{job="eiland"})'), query('up{job="eiland"}')]).catch(() => [[], []]);
    return stamp.length === 1 && Number(stamp[0]!.value[1]) > since && Number(up[0]?.value[1]) === 1;
  };
  const waitScrape = (since: number) =>
    waitFor(() => scrapedAfter(since), 15_000).catch(() => {
      throw new Error(`Prometheus did not scrape ${target}:\n${server.output()}`);
    });
  try {
    await waitScrape(0);
  } catch (error) {
    await remove();
    throw error;
  }
  return {
    async value(expr) {
      const result = await query(expr);
      if (result.length > 1) throw new Error(`${expr} returned ${result.length} series`);
      return result[0] === undefined ? undefined : Number(result[0].value[1]);
    },
    nextScrape: () => waitScrape(Date.now() / 1000),
    remove,
  };
}

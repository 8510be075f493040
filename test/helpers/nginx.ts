/**
 * Debian's nginx on loopback for the tests: the reference configuration
 * (deploy/nginx-eiland.conf) with this run's upstream ports, its own prefix in a temporary
 * folder, no systemd; stopped and removed afterwards.
 */
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from './app.js';
import { run, startProcess, type WatchedProcess } from './project.js';
import { waitFor } from './wait.js';

/** `NGINX_PATH`, else Debian's (installed by `npm test`, see scripts/ensure-test-tools.mjs). */
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

/** A running nginx. */
export interface TestNginx {
  /** `http://127.0.0.1:<port>`, the site's origin. */
  base: string;
  port: number;
  process: WatchedProcess;
  /** Its error log so far. */
  errorLog(): Promise<string>;
  /** Stops it (graceful quit) and removes its prefix. */
  remove(): Promise<void>;
}

/**
 * Starts nginx with the reference site in front of two instances.
 * @param upstreams the two instances' ports on 127.0.0.1
 * @param port where nginx listens (default: a free one), so the instances' PUBLIC_ORIGIN can
 *   be known before they start
 * @throws Error when the configuration does not pass `nginx -t` or nginx does not answer in 10 s
 */
export async function startNginx(upstreams: [number, number], port?: number): Promise<TestNginx> {
  const listen = port ?? (await freePort());
  const base = `http://127.0.0.1:${listen}`;
  const prefix = await mkdtemp(join(tmpdir(), 'eiland-nginx-'));
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) await mkdir(join(prefix, sub));
  await chmod(prefix, 0o755);
  const reference = await readFile('deploy/nginx-eiland.conf', 'utf8');
  const site = reference
    .replace('server 127.0.0.1:3001', `server 127.0.0.1:${upstreams[0]}`)
    .replace('server 127.0.0.1:3002', `server 127.0.0.1:${upstreams[1]}`)
    .replace('listen 8080;', `listen 127.0.0.1:${listen};`);
  assert.notEqual(site, reference);
  await writeFile(join(prefix, 'eiland.conf'), site);
  await writeFile(
    join(prefix, 'nginx.conf'),
    `${userInfo().uid === 0 ? 'user root;\n' : ''}daemon off;
worker_processes 1;
error_log ${prefix}/error.log warn;
pid ${prefix}/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  include ${prefix}/eiland.conf;
}
`,
  );
  await run(NGINX, ['-t', '-p', prefix, '-c', join(prefix, 'nginx.conf')]).catch(async (error: unknown) => {
    await rm(prefix, { recursive: true, force: true });
    throw error;
  });
  const nginx = startProcess(NGINX, ['-p', prefix, '-c', join(prefix, 'nginx.conf')], { cwd: prefix, env: process.env });
  // A graceful quit, then a kill when it takes longer than 5 s; then the prefix goes.
  const remove = async () => {
    const killer = setTimeout(() => void nginx.stop('SIGKILL'), 5000);
    await nginx.stop('SIGQUIT');
    clearTimeout(killer);
    await rm(prefix, { recursive: true, force: true });
  };
  await waitFor(() => fetch(`${base}/healthz`).then((r) => r.ok, () => false), 10_000).catch(async () => {
    const output = nginx.output();
    await remove();
    throw new Error(`nginx did not answer: ${output}`);
  });
  return {
    base,
    port: listen,
    process: nginx,
    errorLog: () => readFile(join(prefix, 'error.log'), 'utf8').catch(() => ''),
    remove,
  };
}

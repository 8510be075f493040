/**
 * The development server answers its own names only (docs/development.md §6): localhost and the
 * names under it, loopback addresses and DEV_ALLOWED_HOSTS; any other Host is a 403 on every path,
 * the reload channel included, at the runner's front and at the server behind it; two Host lines
 * are a 400 there too (docs/filter.md §9). A real `npm run dev` in a copy of the project, asked on
 * the wire.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hostAllowed, parseAllowedHosts } from '../src/dev/allowed-hosts.js';
import { within } from './helpers/app.js';
import { startProcess, useProcess, useProjectCopy, type WatchedProcess } from './helpers/project.js';
import { openWire } from './helpers/wire.js';

describe('the names the development server answers', () => {
  const added = parseAllowedHosts(' Eiland.Test , .Tunnel.Example,[FD00::1]');
  const cases: [host: string | undefined, answered: boolean][] = [
    ['localhost', true],
    ['LocalHost:3000', true],
    ['app.localhost:3000', true],
    ['localhost.evil.example', false],
    ['evil-localhost', false],
    ['127.0.0.1:3000', true],
    ['127.255.255.254', true],
    ['127.0.0.1.nip.io', false],
    ['128.0.0.1', false],
    ['0.0.0.0:3000', false],
    ['[::1]:3000', true],
    ['[0:0:0:0:0:0:0:1]', true],
    ['[::2]', false],
    ['[fd00::1]:3000', true],
    ['eiland.test:3000', true],
    ['EILAND.TEST', true],
    ['www.eiland.test', false],
    ['eiland.test.evil.example', false],
    ['tunnel.example', true],
    ['a.b.tunnel.example:443', true],
    ['eviltunnel.example', false],
    ['evil.example:3000', false],
    ['', false],
    [undefined, false],
  ];
  for (const [host, answered] of cases) {
    it(`${host === undefined ? 'no Host' : JSON.stringify(host)}: ${answered ? 'answered' : 'refused'}`, () => {
      assert.equal(hostAllowed(host, added), answered);
    });
  }

  it('reads DEV_ALLOWED_HOSTS as names in a browser’s spelling, and refuses what is no name, quoting it', () => {
    assert.deepEqual(parseAllowedHosts(' Eiland.Test , .Tunnel.Example,[FD00::1],fd00::2,192.168.1.5,'), ['eiland.test', '.tunnel.example', '[fd00::1]', '[fd00::2]', '192.168.1.5']);
    assert.deepEqual(parseAllowedHosts(undefined), []);
    for (const bad of ['eiland.test:3000', 'http://eiland.test', '*', 'a/b', 'a b', '.']) {
      assert.throws(() => parseAllowedHosts(`eiland.test,${bad}`), (error: Error) => error instanceof RangeError && error.message.includes(`"${bad}"`), bad);
    }
  });
});

/** `ready at …` of the runner: the front's port. */
const READY = /ready at http:\/\/127\.0\.0\.1:(\d+)/;
/** The server behind it, as pino-pretty prints its start: its loopback port. */
const SERVER_STARTED = /server_started[^]*?port: (\d+)/;
const REFUSED = /^Forbidden: the development server does not answer for this host \(.*\)\. To allow it, add its name to DEV_ALLOWED_HOSTS \(comma-separated\)\.\n$/;

describe('npm run dev on the wire (docs/development.md §6)', { timeout: 120_000 }, () => {
  // Made before the runner starts and removed after it stops (an enclosing suite's hooks).
  const project = useProjectCopy();
  describe('with DEV_ALLOWED_HOSTS=eiland.test', () => {
    const dev = useProcess(async () => {
      const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', LOG_LEVEL: 'info', DEV_ALLOWED_HOSTS: 'eiland.test' };
      delete env.NODE_ENV; // the runner sets development itself
      delete env.HOST;
      const server: WatchedProcess = startProcess('npm', ['run', 'dev'], { cwd: project.dir, env });
      try {
        const front = Number((await server.waitFor(READY, 90_000))[1]);
        const behind = Number((await server.waitFor(SERVER_STARTED, 10_000))[1]);
        return { server, front, behind };
      } catch (error) {
        await server.stop();
        throw error;
      }
    });

    /** Sends a request head with these Host lines on its own connection and reads the answer. */
    async function ask(port: number, hosts: string[], { method = 'GET', path = '/over' } = {}) {
      const lines = hosts.map((host) => `Host: ${host}\r\n`).join('');
      const body = method === 'POST' ? 'naam=x' : '';
      const type = method === 'POST' ? `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n` : '';
      const wire = await openWire(port, `${method} ${path} HTTP/1.1\r\n${lines}${type}Connection: close\r\n\r\n${body}`);
      return within(wire.response, 10_000, `${method} ${path} with Host ${hosts.join(' and ')}`);
    }

    it('answers localhost, the loopback addresses and an added name, pages and the reload channel alike', async () => {
      const port = dev.front;
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `eiland.test:${port}`, `app.localhost:${port}`]) {
        const page = await ask(port, [host]);
        assert.equal(page.status, 200, host);
        assert.match(page.body, /<meta name="eiland-build"/, `${host}: the development server's page`);
        const channel = await ask(port, [host], { method: 'HEAD', path: '/_eiland/reload' });
        assert.deepEqual([channel.status, channel.headers['content-type']], [200, 'text/event-stream; charset=utf-8'], host);
      }
    });

    it('refuses any other name with a plain 403 on every path: pages, the reload channel, a form post', async () => {
      for (const [method, path] of [['GET', '/over'], ['GET', '/_eiland/reload'], ['HEAD', '/_eiland/reload'], ['POST', '/aanmelden'], ['GET', '/assets/ontbreekt.js']] as const) {
        const res = await ask(dev.front, [`evil.example:${dev.front}`], { method, path });
        assert.equal(res.status, 403, `${method} ${path}`);
        assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.equal(res.headers.connection, 'close');
        if (method !== 'HEAD') assert.match(res.body, REFUSED, `${method} ${path}`);
      }
      await dev.server.waitFor(/refused a request for host "evil\.example:\d+" \(403\); to answer it, add its name to DEV_ALLOWED_HOSTS/, 5000);
    });

    it('answers two Host lines with the 400 of production, whichever comes first', async () => {
      for (const hosts of [[`localhost:${dev.front}`, `evil.example:${dev.front}`], [`evil.example:${dev.front}`, `localhost:${dev.front}`]]) {
        for (const path of ['/over', '/_eiland/reload']) {
          const res = await ask(dev.front, hosts, { path });
          assert.equal(res.status, 400, `${path}: ${hosts.join(', ')}`);
          assert.equal(res.body, 'Bad Request: more than one Host header\n');
          assert.equal(res.headers.connection, 'close');
        }
      }
    });

    it('the server behind the front checks the same names on its own loopback port', async () => {
      const port = dev.behind;
      assert.equal((await ask(port, [`localhost:${dev.front}`])).status, 200);
      assert.equal((await ask(port, [`eiland.test:${dev.front}`])).status, 200);
      const refused = await ask(port, [`evil.example:${port}`]);
      assert.equal(refused.status, 403);
      assert.match(refused.body, REFUSED);
      const two = await ask(port, [`localhost:${port}`, `evil.example:${port}`]);
      assert.deepEqual([two.status, two.body], [400, 'Bad Request: more than one Host header\n']);
    });
  });
});

// Ports of the servers the benchmark and `npm run lighthouse` start (docs/performance.md §2, §7):
// a free one to give a server that must know its port beforehand, and the one a started Eiland
// process says it listens on.
import { createServer } from 'node:net';

/**
 * A port free on loopback now (`next start`, or a server whose `PUBLIC_ORIGIN` names its port).
 * @returns {Promise<number>}
 * @throws Error when no port can be bound on 127.0.0.1
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port on 127.0.0.1'))));
    });
  });
}

/**
 * Resolves with the port of the process's `server_started` log line. From then on its stdout is
 * drained unread: parsing the log would take the CPU of whatever measures the server.
 * @param {import('node:child_process').ChildProcessByStdio<null, import('node:stream').Readable, any>} child
 *   a spawned process with its stdout piped
 * @returns {Promise<number>}
 * @throws Error when the process exits first
 */
export function startedPort(child) {
  return new Promise((resolve, reject) => {
    let buffer = '';
    /** @param {Buffer} chunk */
    const onData = (chunk) => {
      buffer += chunk;
      const started = /"event":"server_started"[^\n]*"port":(\d+)/.exec(buffer);
      if (!started) return;
      child.stdout.off('data', onData);
      child.stdout.resume();
      resolve(Number(started[1]));
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the server exited with ${code} before it started`)));
  });
}

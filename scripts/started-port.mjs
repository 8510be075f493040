// Waiting for a started Eiland process (the production bundle) to say where it listens: used by
// the benchmark and `npm run lighthouse` (docs/performance.md §2, §7).

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

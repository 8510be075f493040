/**
 * The server as a process (docs/operations.md §4–§5): the configuration checked for the entry's
 * mode, the server started, a graceful shutdown on a stop signal, and exit codes (0 after a
 * shutdown, 1 when it cannot start). The production entry (src/main.ts) and the development
 * entry (src/dev/main.ts) both run through here.
 */
import { BUNDLE } from './assets/bundle.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { closeLog } from './logging.js';
import { startServer, type RunningServer, type ServerOptions } from './server.js';

/** The signals that stop the server gracefully (docs/operations.md §5). */
export const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/**
 * Shuts the server down gracefully on SIGTERM, SIGINT or SIGHUP, then exits with 0. Every
 * signal after the first is logged (`shutdown_signal_repeated`) and changes nothing: under
 * `npm start` a signal to the process group reaches the server twice, once from the sender and
 * once forwarded by npm (Ctrl-C in a terminal, systemd's `KillMode=control-group`), and the
 * drain must not be cut short by the second (docs/operations.md §5: in-flight requests finish,
 * ≤ 10 s). Armed before the server starts: a signal that comes while it starts (a supervisor that
 * stops it as soon as `server_started` is written) waits for the start, then shuts it down.
 * @param starting the server to stop, or its start (a start that fails is reported by its caller)
 */
export function exitOnSignals(starting: RunningServer | Promise<RunningServer>): void {
  let first: string | undefined;
  let logging = true;
  const started = Promise.resolve(starting);
  const onSignal = (signal: NodeJS.Signals) => {
    if (first !== undefined) {
      void started.then(
        (running) => logging && running.logger.info({ event: 'shutdown_signal_repeated', signal, first }, 'shutdown_signal_repeated'),
        () => {},
      );
      return;
    }
    first = signal;
    void started.then(
      (running) =>
        running
          .shutdown(signal)
          .then(() => {
            // The log is written out in order, to `shutdown_complete`, before the process ends.
            logging = false;
            return closeLog(running.logger);
          })
          .then(() => process.exit(0)),
      // A start that failed is reported, and ends the process, where it was started.
      () => {},
    );
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
}

/**
 * Runs the server process of an entry: exits with 1 and a message on stderr when the
 * configuration is bad, does not fit the entry's mode, or the server cannot start.
 * @param mode the entry's mode; a production entry refuses `NODE_ENV=development` and the reverse
 * @param prepare what the entry adds to the server's options, given the configuration
 * @returns the running server (its shutdown exits the process)
 */
export async function runServerProcess(mode: 'production' | 'development', prepare: (config: Config) => ServerOptions = () => ({})): Promise<RunningServer | undefined> {
  try {
    const config = loadConfig();
    if (config.production !== (mode === 'production')) {
      throw new ConfigError([`NODE_ENV=${config.production ? 'production' : 'development'} does not match this ${BUNDLE?.mode ?? mode} bundle: run "npm start" for production, "npm run dev" for development`]);
    }
    const starting = startServer(config, prepare(config));
    exitOnSignals(starting);
    return await starting;
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : `Eiland could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

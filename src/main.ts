/**
 * The process entry (`npm start`): validates the configuration, starts the
 * server, and shuts down gracefully on SIGTERM/SIGINT with exit code 0.
 */
import { ConfigError, loadConfig } from './config.js';
import { exitOnSignals, startServer } from './server.js';

try {
  exitOnSignals(await startServer(loadConfig()));
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `Eiland could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

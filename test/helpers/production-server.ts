/**
 * The real server of `npm start` (src/server.ts: Node's HTTP parser and its limits, time-outs and
 * shutdown around the app) on port 0 in this process, with its log lines captured, for a suite.
 */
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { logCollector, type LogLine } from './logs.js';
import { useResource } from './suite.js';
import { tempStorage } from './temp-storage.js';
import { FORMS, FORMS_MODULE } from '../fixtures/forms.js';
import { testAssets } from './test-dist.js';

/** A server of {@link useServer}. */
interface TestServer {
  port: number;
  /** Its SQLite file, for a test that reads what the server wrote (rate-limit counters). */
  databaseFile: string;
  /** Every log line written so far, raw. */
  lines: string[];
  /** Every log line written so far, parsed. */
  logs(): LogLine[];
}

/**
 * Registers hooks that start the server on a temporary database and shut it down afterwards.
 * @param env extra environment for `loadConfig`
 * @returns the server, valid inside the suite's tests
 */
export function useServer(env: NodeJS.ProcessEnv = {}): TestServer {
  return useResource(
    'useServer()',
    async () => {
      const collector = logCollector();
      const temp = await tempStorage();
      const config = loadConfig({ PORT: '0', LOG_LEVEL: 'debug', CSRF_SECRET: 'test-secret-test-secret-test-secret-0123', ...env });
      const running = await startServer(config, { storage: temp.storage, mailDir: temp.mailDir, logStream: collector.stream, forms: FORMS, formsModule: FORMS_MODULE, assets: testAssets() });
      const close = async () => {
        await running.shutdown('test');
        await temp.remove();
      };
      return { port: Number(new URL(running.url).port), databaseFile: temp.file, lines: collector.lines, logs: () => collector.lines.map((l) => JSON.parse(l) as LogLine), close };
    },
    (server) => server.close(),
  );
}

/**
 * A server with the outbox's sender running (docs/operations.md §12), for the tests of e-mail: on a
 * temporary SQLite database (or the given `DATABASE_URL`), its log collected, metrics on, and a
 * post of a form to it. Use with a real SMTP server (test/helpers/smtp.ts) or the `.eml` files.
 */
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { openForm, postForm, type Fields } from './form.js';
import { logCollector, type LogLine } from './logs.js';
import { tempStorage } from './temp-storage.js';
import { FORMS, FORMS_MODULE } from '../fixtures/forms.js';
import { testAssets } from './test-dist.js';
import { waitFor } from './wait.js';

/** The site's secret of a server of {@link serverWith}. */
export const SECRET = 'test-secret-test-secret-test-secret-0123';
/** The sender of the tests' e-mails. */
export const FROM = 'Eiland <noreply@eiland.example>';

/**
 * Starts a server on a temporary database, or on `DATABASE_URL`'s when given (several instances on
 * one PostgreSQL), stopped (and the temporary database removed) after the test.
 * @param env extra environment for `loadConfig`, e.g. `{ SMTP_URL }`
 * @param formsModule the module of the forms for the sender's thread (`formsModule` of src/site.ts)
 */
export async function serverWith(t: TestContext, env: NodeJS.ProcessEnv, formsModule = FORMS_MODULE) {
  const temp = await tempStorage({ notify: env.NOTIFY_TO !== undefined });
  const { stream, lines } = logCollector();
  const config = loadConfig({ PORT: '0', LOG_LEVEL: 'debug', CSRF_SECRET: SECRET, MAIL_FROM: FROM, MAIL_RETRY_MS: '100', METRICS_PORT: '0', ...env });
  const storage = env.DATABASE_URL ? undefined : temp.storage;
  const running = await startServer(config, { storage, mailDir: temp.mailDir, logStream: stream, forms: FORMS, formsModule, assets: testAssets() });
  t.after(async () => {
    await running.shutdown('test');
    await temp.remove();
  });
  const app = { port: Number(new URL(running.url).port), url: running.url };
  const logs = () => lines.map((l) => JSON.parse(l) as LogLine);
  return {
    running,
    /** Its port and origin, for the form helpers. */
    app,
    temp,
    logs,
    /** Every log line as written. */
    rawLogs: () => [...lines],
    events: (event: string) => logs().filter((l) => l.event === event),
    /** Posts a valid form; the answer's time, in ms, and the stored row's id (from the 303). */
    async post(path: string, fields: Fields) {
      const session = await openForm(app, path);
      const started = performance.now();
      const res = await postForm(app, path, fields, session);
      assert.equal(res.status, 303, `${path}: ${res.body.slice(0, 200)}`);
      return { ms: performance.now() - started, location: String(res.headers.location) };
    },
    /**
     * Resolves once the sender has read the outbox `n` more times (its `mail_leased` lines).
     * A read comes after the sends of the read before have settled and, with no new message to wake
     * the sender, 250 ms or more after them (MAIL_RETRY_MS 100: src/mail/sender.ts). So a message
     * due again within `(n - 2) × 250` ms of now has been leased, and its send settled, by then:
     * the bound of a test that something is not sent again.
     */
    async afterReads(n: number, ms = 10_000) {
      const reads = () => lines.filter((line) => line.includes('"event":"mail_leased"')).length;
      const target = reads() + n;
      await waitFor(() => reads() >= target, ms);
    },
    /** The value of `eiland_mail_total{outcome}`. */
    async counted(outcome: string) {
      const text = await (await fetch(running.metricsUrl!)).text();
      return Number(new RegExp(`^eiland_mail_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    },
  };
}


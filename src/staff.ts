/**
 * The entry of `npm run staff` (docs/beheer.md §1): the command on the configured database, its
 * answer on stdout, a problem on stderr, and the exit code.
 */
import { ConfigError, loadConfig } from './config.js';
import { staffCommand, UsageError } from './beheer/staff-command.js';
import { formMigrations } from './forms/index.js';
import { csrfSecretOf, linkOrigin } from './site.js';
import { openStorage } from './storage/index.js';

try {
  const config = loadConfig();
  const storage = await openStorage(config, { forms: formMigrations() });
  try {
    // With SMTP_URL the link is e-mailed too, sealed under the site's secret (docs/beheer.md §1).
    const secret = config.mail.smtpUrl === undefined ? undefined : await csrfSecretOf(config, storage);
    process.exitCode = await staffCommand(process.argv.slice(2), storage, linkOrigin(config, config.port), process.stdout, Date.now(), secret);
  } finally {
    await storage.close();
  }
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = error instanceof UsageError || error instanceof ConfigError ? 2 : 1;
}

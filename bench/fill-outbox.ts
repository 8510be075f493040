// The outbox phase's backlog (docs/performance.md §2): N registrations written into a
// deployment's SQLite file before its instance starts, each through the project's own storage
// (src/storage/index.ts), so each leaves one e-mail pending in the outbox as a form's post
// does (docs/operations.md §12). Each has an address of its own (`backlog.<n>@voorbeeld.nl`): one
// address gets 3 e-mails a day, the rest would be kept as suppressed and never sent.
//
//   node --import tsx --import ./src/env.ts bench/fill-outbox.ts <dbFile> <N>   (from the repository root)
//
// Prints one JSON line, `{"registrations":N,"ms":…}`; exits 1 when a save did not leave its e-mail
// pending (a key's row already there, or the e-mail suppressed), 2 on wrong arguments.
import { randomUUID } from 'node:crypto';
import { openSqlite } from '../src/storage/index.js';
import { REGISTRATION } from '../test/helpers/temp-storage.js';
import { registrations } from '../src/forms/registration.js';

const [file, count] = process.argv.slice(2);
const total = Number(count);
if (!file || !Number.isInteger(total) || total < 1) {
  process.stderr.write('usage: node --import tsx --import ./src/env.ts bench/fill-outbox.ts <dbFile> <N>\n');
  process.exit(2);
}

const started = performance.now();
const storage = await openSqlite(file);
try {
  for (let n = 1; n <= total; n++) {
    const saved = await registrations(storage).save(randomUUID(), { ...REGISTRATION, email: `backlog.${n}@voorbeeld.nl` });
    if (!saved.created || saved.suppressed) throw new Error(`registration ${n} of ${total} left no pending e-mail (created: ${saved.created}, suppressed: ${saved.suppressed})`);
  }
} catch (error) {
  process.stderr.write(`fill-outbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await storage.close();
}
if (process.exitCode !== 1) process.stdout.write(`${JSON.stringify({ registrations: total, ms: Math.round(performance.now() - started) })}\n`);

// The limit of a form post beside Eiland's in `npm run bench` (docs/performance.md §2):
// `POST /aanmelden` at its floor, served by bench/reference-server.mjs on Node's `http` alone.
// The body decoded as `application/x-www-form-urlencoded`, the registration's compiled rule list
// evaluated with the rules' checks (the browser's validation: islands/lib/validate.ts), one
// better-sqlite3 transaction (the client address's rate-limit counter, the row, its outbox row),
// a 303 to the registration's page, and after the answer its e-mail composed by Nodemailer and
// written as an `.eml` file. No CSRF token, no log line, no metrics, no Express: what Eiland does
// besides is what it costs beyond this.
//
// Bundled by the benchmark (bench/servers.mjs, `buildReferencePost`) into the deployment folder,
// where the reference server imports it.
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import nodemailer from 'nodemailer';
import { registerChecks, validateValues } from '../islands/lib/validate.js';
import { RULES } from '../islands/lib/rules/index.js';
import { ruleLists } from '../src/forms/browser-rule-lists.js';
import { FORMS } from '../src/forms/index.js';
import { composeMail } from '../src/mail/compose.js';
import { registrationForm } from '../src/forms/registration.js';

/** The largest body taken, as Eiland's form posts (src/forms/body.ts). */
const BODY_LIMIT = 32 * 1024;
/** The rate limit's window, as `FORM_RATE_LIMIT`'s default (10 minutes). */
const WINDOW_MS = 10 * 60 * 1000;

/**
 * The handler of `POST /aanmelden`.
 * @param options `dbFile`: a migrated Eiland database; `mailDir`: where the `.eml` files go
 */
export function referencePost({ dbFile, mailDir }: { dbFile: string; mailDir: string }): (req: IncomingMessage, res: ServerResponse) => void {
  registerChecks(Object.fromEntries(Object.values(RULES).map((rule) => [rule.name, rule.check])));
  const rules = ruleLists(FORMS)[registrationForm.island]!;
  const fields = registrationForm.keep.fields;
  const db = new Database(dbFile);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  const hit = db.prepare(
    'INSERT INTO rate_limits (key, hits, reset_at) VALUES (?, 1, ?) ON CONFLICT (key) DO UPDATE SET hits = CASE WHEN rate_limits.reset_at <= ? THEN 1 ELSE rate_limits.hits + 1 END, reset_at = CASE WHEN rate_limits.reset_at <= ? THEN excluded.reset_at ELSE rate_limits.reset_at END',
  );
  const insert = db.prepare(`INSERT INTO registrations (id, submission_key, ${fields.join(', ')}, created_at) VALUES (?, ?, ${fields.map(() => '?').join(', ')}, ?)`);
  const enqueue = db.prepare("INSERT INTO outbox (id, kind, about, recipient, state, attempts, due_at, created_at) VALUES (?, 'registration', ?, ?, 'pending', 0, ?, ?)");
  const store = db.transaction((address: string, row: unknown[]) => {
    const now = Date.now();
    hit.run(`posts of the registration form:${address}`, now + WINDOW_MS, now, now);
    insert.run(...row);
    enqueue.run(randomUUID(), row[0], 'reference', now, now);
  });
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  mkdirSync(mailDir, { recursive: true });

  return function referencePost(req, res) {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) res.writeHead(413).end();
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (res.writableEnded) return;
      const values: Record<string, string | string[]> = {};
      for (const [name, value] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) {
        const before = values[name];
        values[name] = before === undefined ? (name === 'interesses' ? [value] : value) : [before, value].flat();
      }
      if (Object.keys(validateValues(rules, values)).length > 0) return void res.writeHead(422).end();
      const id = randomUUID();
      const row = fields.map((field) => (field === 'interesses' ? JSON.stringify(values[field] ?? []) : field === 'personen' ? Number(values[field]) : ((values[field] as string | undefined) || null)));
      store(req.socket.remoteAddress ?? '', [id, randomUUID(), ...row, new Date().toISOString()]);
      res.writeHead(303, { Location: `/aanmeldingen/${id}` }).end();
      // The e-mail after the answer, as Eiland's sender does it: composed, written whole.
      setImmediate(async () => {
        const { subject, text, html } = composeMail(registrationForm.keep.mail!({ id, createdAt: '', ...values } as never, 'http://127.0.0.1'));
        const { message } = await stream.sendMail({ from: 'Eiland <noreply@localhost>', to: String(values.email), subject, text, html });
        writeFileSync(join(mailDir, `${id}.eml`), message as Buffer);
      });
    });
  };
}

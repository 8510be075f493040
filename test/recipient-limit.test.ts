/**
 * Nobody's inbox is a target (docs/operations.md §12): one address gets at most 3 e-mails in 24
 * hours, however many posts name it, from however many client addresses, through however many
 * instances — two on one PostgreSQL here, delivering to a real SMTP server. The rest are kept as
 * suppressed, logged and counted without the address, and the name the sender chose reaches the
 * e-mails only as a short greeting.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { MAILS_PER_RECIPIENT } from '../src/storage/recipient.js';
import { CONTACT_VALID, openForm, postForm, VALID } from './helpers/form.js';
import { freshAddress } from './helpers/app.js';
import { serverWith } from './helpers/mail-server.js';
import { usePostgres } from './helpers/postgres.js';
import { startSmtp } from './helpers/smtp.js';
import { waitFor } from './helpers/wait.js';

const cluster = usePostgres();
const TARGET = 'Doelwit@Voorbeeld.NL';
/** What an attacker would like the target to read. */
const NAAM = 'Win! zie evil.example/prijs';

describe('the recipient limit (docs/operations.md §12)', () => {
  it('50 registrations and 50 contact messages for one address, from 50 clients through two instances on one PostgreSQL: 3 e-mails arrive', async (t) => {
    const url = await cluster.createDatabase();
    const smtp = await startSmtp();
    t.after(() => smtp.stop());
    const env = { DATABASE_URL: url, SMTP_URL: smtp.url, FORM_RATE_LIMIT: '1000/1m' };
    const instances = [await serverWith(t, env), await serverWith(t, env)];
    const posts = Array.from({ length: 50 }, (_, n) => async () => {
      const from = freshAddress();
      const { app: site } = instances[n % 2]!;
      // The address in every spelling of one mailbox: the case of either part.
      const email = n % 3 === 0 ? TARGET : n % 3 === 1 ? TARGET.toLowerCase() : TARGET.toUpperCase();
      const registered = await postForm(site, '/aanmelden', { ...VALID, naam: NAAM, email }, await openForm(site, '/aanmelden', from));
      const sent = await postForm(site, '/contact', { ...CONTACT_VALID, naam: NAAM, email }, await openForm(site, '/contact', from));
      return [registered.status, sent.status];
    });
    // Ten clients at a time.
    const statuses: number[][] = [];
    for (let i = 0; i < posts.length; i += 10) statuses.push(...(await Promise.all(posts.slice(i, i + 10).map((post) => post()))));
    assert.deepEqual(new Set(statuses.flat()), new Set([303]), 'every post is answered as usual: nothing tells the sender');

    const sent = () => instances.reduce((n, i) => n + i.events('mail_sent').length, 0);
    await waitFor(() => sent() === MAILS_PER_RECIPIENT, 20_000);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const states = await client.query<{ state: string; n: string }>('SELECT state, count(*) AS n FROM outbox GROUP BY state ORDER BY state').finally(() => client.end());
    assert.deepEqual(states.rows.map((r) => [r.state, Number(r.n)]), [['sent', 3], ['suppressed', 97]], 'nothing left to send');

    assert.equal(smtp.received.length, 3);
    const suppressed = instances.flatMap((i) => i.events('mail_suppressed'));
    assert.equal(suppressed.length, 97);
    assert.deepEqual(new Set(suppressed.map((l) => l.level)), new Set([40]));
    assert.deepEqual((await Promise.all(instances.map((i) => i.counted('suppressed')))).reduce((a, b) => a + b), 97);
    assert.deepEqual((await Promise.all(instances.map((i) => i.counted('sent')))).reduce((a, b) => a + b), 3);
    for (const line of instances.flatMap((i) => i.rawLogs())) assert.doesNotMatch(line, /doelwit|evil\.example/i, 'no address and no name in any log line');
    for (const mail of smtp.received) {
      assert.match(String(mail.text), /^Hallo,\n/, 'the greeting carries none of the name');
      assert.doesNotMatch(`${mail.subject} ${mail.text} ${mail.html} ${mail.headers.get('to') ? JSON.stringify(mail.headers.get('to')) : ''}`, /evil|prijs|Win!/);
    }
    assert.deepEqual(new Set(smtp.recipients.flat().map((r) => r.toLowerCase())), new Set([TARGET.toLowerCase()]));
  });
});

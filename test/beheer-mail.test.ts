/**
 * The organisation told of each contact message (docs/beheer.md §5): `NOTIFY_TO` validated at
 * start-up and said in the start line, an e-mail per message to its mailboxes with `Reply-To` the
 * sender and the link to it in beheer, at most 30 an hour, then one summary with the count; and a
 * staff account's password link e-mailed through the outbox (docs/beheer.md §1).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { ConfigError, loadConfig } from '../src/config.js';
import { contactMessages } from '../src/forms/contact.js';
import { FORMS, letters } from '../src/forms/index.js';
import { NOTIFICATIONS_PER_HOUR, SUMMARY_KIND } from '../src/storage/notify.js';
import { CONTACT_VALID, VALID } from './helpers/form.js';
import { SECRET, serverWith } from './helpers/mail-server.js';
import { linkIn } from './helpers/beheer.js';
import { staffCommand } from '../src/beheer/staff-command.js';
import { digest } from '../src/beheer/session.js';
import { startSmtp } from './helpers/smtp.js';
import { tempStorage } from './helpers/temp-storage.js';

const TEAM = ['team@eiland.example', 'info@eiland.example'];

describe('notifications of new contact messages (docs/beheer.md §5)', () => {
  it('takes NOTIFY_TO as addresses separated by commas, and refuses anything else naming the variable', () => {
    assert.deepEqual(loadConfig({ NOTIFY_TO: ' team@eiland.example , info@eiland.example ' }).mail.notifyTo, TEAM);
    assert.equal(loadConfig({}).mail.notifyTo, undefined);
    for (const bad of ['geen-adres', 'a@eiland.example,,b@eiland.example', 'Team <team@eiland.example>', 'a@eiland.example\r\nBcc: x@evil.example']) {
      assert.throws(() => loadConfig({ NOTIFY_TO: bad }), (error: unknown) => error instanceof ConfigError && /NOTIFY_TO/.test(error.message), bad);
    }
  });

  it('mails the message to NOTIFY_TO with Reply-To the sender and the link in beheer, and says so in the start line', async (t) => {
    const smtp = await startSmtp();
    t.after(() => smtp.stop());
    const site = await serverWith(t, { SMTP_URL: smtp.url, NOTIFY_TO: TEAM.join(',') });
    assert.equal(site.events('server_started')[0]!.notifications, 2);
    await site.post('/aanmelden', VALID);
    await site.post('/contact', CONTACT_VALID);
    await smtp.waitForReceived(3);
    const notification = smtp.received.find((mail) => String(mail.subject).startsWith('Nieuw via'));
    assert.ok(notification, 'one notification');
    assert.equal(smtp.received.filter((mail) => String(mail.subject).startsWith('Nieuw via')).length, 1, 'a registration notifies no one');
    assert.equal(notification.subject, 'Nieuw via Contact: Vraag');
    assert.deepEqual(Array.isArray(notification.to) ? [] : notification.to!.value.map((a) => a.address), TEAM);
    assert.equal(notification.replyTo?.value[0]?.address, CONTACT_VALID.email);
    assert.ok(String(notification.text).includes(String(CONTACT_VALID.bericht)));
    assert.match(String(notification.text), new RegExp(`${site.running.url.replace(/[.]/g, '\\.')}/beheer/contact/[0-9a-f-]{36}\\n`));
    assert.ok(!JSON.stringify(site.logs()).includes(String(CONTACT_VALID.email)), 'no address in the log');
  });

  it(`sends at most ${NOTIFICATIONS_PER_HOUR} an hour, then keeps them as suppressed with one summary due an hour on`, async (t) => {
    const temp = await tempStorage({ notify: true });
    t.after(async () => {
      await temp.storage.close();
      await temp.remove();
    });
    const messages = contactMessages(temp.storage);
    for (let i = 0; i < NOTIFICATIONS_PER_HOUR + 2; i++) await messages.save(randomUUID(), { ...CONTACT_VALID, email: `afzender${i}@voorbeeld.nl` } as never);
    const db = new Database(temp.file, { readonly: true });
    t.after(() => db.close());
    const rows = db.prepare("SELECT id, kind, state, due_at - created_at AS delay FROM outbox WHERE recipient = 'notify'").all() as Array<{ id: string; kind: string; state: string; delay: number }>;
    const notices = rows.filter((row) => row.kind === 'notify:contact');
    assert.equal(notices.filter((row) => row.state === 'pending').length, NOTIFICATIONS_PER_HOUR);
    assert.equal(notices.filter((row) => row.state === 'suppressed').length, 2);
    const summaries = rows.filter((row) => row.kind === SUMMARY_KIND);
    assert.equal(summaries.length, 1, 'one summary for the hour');
    assert.equal(summaries[0]!.delay, 60 * 60 * 1000);
    const letter = await letters(temp.storage, 'https://eiland.example', FORMS, { notifyTo: TEAM })({ id: summaries[0]!.id, kind: SUMMARY_KIND, about: summaries[0]!.id, attempts: 1, lease: randomUUID() });
    assert.equal(letter?.subject, '2 meldingen niet verstuurd');
    assert.deepEqual(letter?.to, TEAM);
  });

  it('enqueues no notification without NOTIFY_TO', async (t) => {
    const temp = await tempStorage();
    t.after(async () => {
      await temp.storage.close();
      await temp.remove();
    });
    await contactMessages(temp.storage).save(randomUUID(), CONTACT_VALID as never);
    const db = new Database(temp.file, { readonly: true });
    t.after(() => db.close());
    assert.deepEqual(db.prepare("SELECT count(*) AS n FROM outbox WHERE recipient = 'notify'").get(), { n: 0 });
  });
});

describe('a password link by e-mail (docs/beheer.md §1)', () => {
  it('is e-mailed through the outbox when mail is configured, the link the command printed', async (t) => {
    const smtp = await startSmtp();
    t.after(() => smtp.stop());
    const site = await serverWith(t, { SMTP_URL: smtp.url });
    const email = `nieuw-${Date.now()}@eiland.example`;
    const out: string[] = [];
    const code = await staffCommand(['add', email, '--role', 'reader'], site.temp.storage, site.running.url, { write: (text: string) => out.push(text) } as never, Date.now(), SECRET);
    assert.equal(code, 0);
    assert.match(out.join(''), /also e-mailed to/);
    await smtp.waitForReceived(1);
    const [mail] = smtp.received;
    assert.equal(mail!.subject, 'Je link voor beheer bij Eiland');
    assert.equal(Array.isArray(mail!.to) ? '' : mail!.to!.text, email);
    assert.ok(String(mail!.text).includes(`${site.running.url}${linkIn(out.join(''))}`), 'the printed link');
    assert.ok(!site.rawLogs().some((line) => line.includes(linkIn(out.join('')).split('/').pop()!)), 'no token in the log');
  });

  it('keeps the sealed token only until the link is used, its unsent e-mail going with it', async (t) => {
    const temp = await tempStorage();
    t.after(async () => {
      await temp.storage.close();
      await temp.remove();
    });
    const out: string[] = [];
    await staffCommand(['add', `gebruikt-${Date.now()}@eiland.example`, '--role', 'reader'], temp.storage, 'http://127.0.0.1', { write: (text: string) => out.push(text) } as never, Date.now(), SECRET);
    const token = linkIn(out.join('')).split('/').pop()!;
    const db = new Database(temp.file, { readonly: true });
    t.after(() => db.close());
    const before = db.prepare("SELECT l.sealed, (SELECT count(*) FROM outbox o WHERE o.about = l.id) AS mails FROM staff_links l").get() as { sealed: string | null; mails: number };
    assert.ok(before.sealed && !before.sealed.includes(token), 'sealed, not the token');
    assert.equal(before.mails, 1);
    assert.ok(await temp.storage.staff.useLink(digest(token), Date.now()));
    assert.deepEqual(db.prepare("SELECT l.sealed, (SELECT count(*) FROM outbox o WHERE o.about = l.id) AS mails FROM staff_links l").get(), { sealed: null, mails: 0 });
  });
});

/**
 * The outbox's e-mail through a real SMTP server on loopback (docs/operations.md §12): a
 * registration's confirmation and a contact message's receipt, delivered once; the form's answer
 * never waits for SMTP; a server down and back, a slow one, a 4xx and a 5xx answer; the start-up
 * log says where mail goes; and nothing personal in any log line.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { simpleParser } from 'mailparser';
import { LEASE_BATCH } from '../src/mail/sender.js';
import { SMTP_CONNECTIONS } from '../src/mail/transport.js';
import { openSqlite } from '../src/storage/index.js';
import { CONTACT_VALID, VALID } from './helpers/form.js';
import { REGISTRATION, TEST_MIGRATIONS } from './helpers/temp-storage.js';
import { FROM, serverWith } from './helpers/mail-server.js';
import type { LogLine } from './helpers/logs.js';
import { startSmtp, type TestSmtp } from './helpers/smtp.js';
import { waitFor } from './helpers/wait.js';
import { registrations } from '../src/forms/registration.js';

/** Asserts that no log line names the person or holds a registration's id. */
function assertNothingPersonal(lines: LogLine[], secrets: string[]) {
  const text = JSON.stringify(lines);
  for (const secret of secrets) assert.ok(!text.includes(secret), `the log holds "${secret}"`);
}

async function smtpFor(t: TestContext, mode?: Parameters<typeof startSmtp>[0]): Promise<TestSmtp> {
  const smtp = await startSmtp(mode);
  t.after(() => smtp.stop());
  return smtp;
}

describe('the outbox through SMTP (docs/operations.md §12)', () => {
  it("sends a registration's confirmation with the link to its page, and a contact message's receipt, once each", async (t) => {
    const smtp = await smtpFor(t);
    const site = await serverWith(t, { SMTP_URL: smtp.url });
    const origin = site.running.url.replace(/[.]/g, '\\.');
    const { location } = await site.post('/aanmelden', VALID);
    await site.post('/contact', CONTACT_VALID);
    await smtp.waitForReceived(2);
    const [confirmation, receipt] = [...smtp.received].sort((a, b) => String(a.subject).localeCompare(String(b.subject)));
    assert.equal(confirmation!.subject, 'Je aanmelding bij Eiland');
    assert.equal(confirmation!.from?.text, '"Eiland" <noreply@eiland.example>');
    assert.equal(confirmation!.to && !Array.isArray(confirmation!.to) ? confirmation!.to.text : '', 'anna@voorbeeld.nl', 'the address alone: no name the sender chose');
    assert.match(String(confirmation!.text), new RegExp(`^Hallo Anna,\\n\\n[^]*\\n${origin}${location}\\n`));
    assert.match(String(confirmation!.html), new RegExp(`<a href="${origin}${location}">`));
    assert.match(String(confirmation!.html), /^<!DOCTYPE html><html lang="nl">/);
    assert.equal(confirmation!.headers.get('auto-submitted'), 'auto-generated');
    assert.equal(receipt!.subject, 'We hebben je bericht ontvangen');
    assert.match(String(receipt!.text), /^Hallo Anna,\n\nBedankt voor je bericht aan Eiland\./);
    assert.doesNotMatch(String(receipt!.text), /Hoe laat begint/, 'the receipt does not repeat the message');
    // Both sends recorded, then two reads of the outbox: a message due again would have been sent.
    await waitFor(() => site.events('mail_sent').length === 2, 3000);
    await site.afterReads(2);
    assert.equal(smtp.received.length, 2, 'nothing sent twice');
    assert.equal(await site.counted('sent'), 2);
    const sent = site.events('mail_sent');
    assert.deepEqual(sent.map((l) => [l.kind, l.attempts, l.level]).sort(), [['contact', 1, 30], ['registration', 1, 30]]);
    assertNothingPersonal(site.logs(), ['Anna', 'anna@voorbeeld.nl', location.split('/').pop()!]);
  });

  it('keeps a message while the server is down and delivers it once the server is back; the answer never waits', async (t) => {
    const smtp = await smtpFor(t);
    await smtp.stop();
    const site = await serverWith(t, { SMTP_URL: smtp.url });
    const { ms, location } = await site.post('/aanmelden', VALID);
    assert.ok(ms < 2000, `the form answered in ${Math.round(ms)} ms`);
    await waitFor(() => site.events('mail_retry').length >= 2, 10_000);
    const retry = site.events('mail_retry')[0]!;
    assert.deepEqual([retry.level, retry.code, retry.attempts, retry.retryInMs], [40, 'ESOCKET', 1, 100]);
    assert.equal(site.events('mail_retry')[1]!.retryInMs, 200, 'the delay doubles');
    await smtp.start();
    await smtp.waitForReceived(1, 15_000);
    await waitFor(() => site.events('mail_sent').length === 1, 3000);
    await site.afterReads(2);
    assert.equal(smtp.received.length, 1);
    assert.ok(String(smtp.received[0]!.text).includes(location));
    assert.ok((await site.counted('retried')) >= 2);
    assertNothingPersonal(site.logs(), ['Anna', 'anna@voorbeeld.nl', location.split('/').pop()!]);
  });

  it('answers the form at once while a slow server takes seconds to accept', async (t) => {
    const smtp = await smtpFor(t, 'slow');
    smtp.slowMs = 2500;
    const site = await serverWith(t, { SMTP_URL: smtp.url });
    const { ms } = await site.post('/aanmelden', VALID);
    assert.ok(ms < 2000, `the form answered in ${Math.round(ms)} ms`);
    await waitFor(() => smtp.tries === 1, 5000);
    assert.equal(smtp.received.length, 0, 'still being accepted');
    await smtp.waitForReceived(1, 10_000);
    await waitFor(() => site.events('mail_sent').length === 1, 3000);
    assert.equal(site.events('mail_retry').length, 0);
  });

  it('tries again after a 4xx answer, and delivers once the server accepts', async (t) => {
    const smtp = await smtpFor(t, 'tempfail');
    const site = await serverWith(t, { SMTP_URL: smtp.url });
    await site.post('/aanmelden', VALID);
    await waitFor(() => smtp.tries >= 2, 10_000);
    smtp.mode = 'accept';
    await smtp.waitForReceived(1);
    await waitFor(() => site.events('mail_sent').length === 1, 3000);
    const retries = site.events('mail_retry');
    assert.ok(retries.length >= 2);
    assert.deepEqual([retries[0]!.responseCode, retries[0]!.level], [451, 40]);
    assert.equal(site.events('mail_sent')[0]!.attempts, retries.length + 1);
    assert.equal(site.events('mail_set_aside').length, 0);
  });

  it('sets a message aside after a 5xx answer, at once, with an error line and a metric, and tries it no more', async (t) => {
    const smtp = await smtpFor(t, 'reject');
    const site = await serverWith(t, { SMTP_URL: smtp.url });
    const { location } = await site.post('/aanmelden', VALID);
    await waitFor(() => site.events('mail_set_aside').length === 1, 5000);
    const aside = site.events('mail_set_aside')[0]!;
    assert.deepEqual([aside.level, aside.responseCode, aside.attempts, aside.kind], [50, 550, 1, 'registration']);
    assert.equal(await site.counted('set_aside'), 1);
    // Had it been kept for a retry, the retry would be due 100 ms after the set-aside line.
    await site.afterReads(3);
    assert.equal(smtp.tries, 1, 'not tried again');
    assertNothingPersonal(site.logs(), ['Anna', 'anna@voorbeeld.nl', location.split('/').pop()!]);
  });

  it('sets a message aside after MAIL_MAX_ATTEMPTS refusals for now', async (t) => {
    const smtp = await smtpFor(t, 'tempfail');
    const site = await serverWith(t, { SMTP_URL: smtp.url, MAIL_MAX_ATTEMPTS: '3' });
    await site.post('/contact', CONTACT_VALID);
    await waitFor(() => site.events('mail_set_aside').length === 1, 10_000);
    assert.equal(site.events('mail_set_aside')[0]!.attempts, 3);
    assert.equal(site.events('mail_retry').length, 2);
    // A fourth try would be due 400 ms after the third (the delay doubles from 100 ms).
    await site.afterReads(4);
    assert.equal(smtp.tries, 3);
  });

  it('sends a burst several at once, and a stop gives back every leased message it has not sent', async (t) => {
    const smtp = await smtpFor(t, 'hang');
    const site = await serverWith(t, { SMTP_URL: smtp.url });
    const count = LEASE_BATCH + 5;
    for (let n = 1; n <= count; n++) await registrations(site.temp.storage).save(randomUUID(), { ...REGISTRATION, email: `persoon${n}@voorbeeld.nl` });
    // Several sends under way at once, one on each of the pool's connections, none of them answered.
    await waitFor(() => smtp.tries === SMTP_CONNECTIONS, 10_000);
    await site.running.shutdown('test');
    const reopened = await openSqlite(site.temp.file, TEST_MIGRATIONS);
    try {
      const due = await reopened.leaseMail(2 * count, 60_000);
      assert.equal(due.length, count, 'every message due again at once');
      assert.deepEqual(new Set(due.map((m) => m.attempts)), new Set([1]), 'no try counted for the sends given back, nor for those never begun');
    } finally {
      await reopened.close();
    }
  });

  it('says in the start-up log where mail goes, never the SMTP password, also when the login is refused', async (t) => {
    const smtp = await smtpFor(t);
    const withSmtp = await serverWith(t, { SMTP_URL: smtp.url.replace('smtp://', 'smtp://eiland:geheim-wachtwoord@') });
    const started = withSmtp.events('server_started')[0]!;
    assert.deepEqual([started.mail, started.smtpHost], ['smtp', smtp.url.replace('smtp://', '')]);
    // The test server takes no login: refused (535), which is the configuration's fault, not the
    // message's: tried again, never set aside.
    await withSmtp.post('/aanmelden', VALID);
    await waitFor(() => withSmtp.events('mail_retry').length >= 2, 10_000);
    assert.deepEqual([withSmtp.events('mail_retry')[0]!.code, withSmtp.events('mail_set_aside').length], ['EAUTH', 0]);
    assertNothingPersonal(withSmtp.logs(), ['geheim-wachtwoord', 'anna@voorbeeld.nl']);
    const withFiles = await serverWith(t, {});
    assert.deepEqual([withFiles.events('server_started')[0]!.mail, withFiles.events('server_started')[0]!.mailDir], ['files', withFiles.temp.mailDir]);
  });

  it('without SMTP_URL writes each message as an .eml file under the mail folder', async (t) => {
    const site = await serverWith(t, {});
    const { location } = await site.post('/aanmelden', VALID);
    await waitFor(() => site.events('mail_sent').length === 1, 5000);
    const files = await readdir(site.temp.mailDir);
    assert.equal(files.length, 1);
    assert.match(files[0]!, new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d-\\d{3}Z-${location.split('/').pop()}-[0-9a-f-]{36}\\.eml$`), 'named by its time, the row it is about and its own id');
    const parsed = await simpleParser(await readFile(join(site.temp.mailDir, files[0]!)));
    assert.equal(parsed.subject, 'Je aanmelding bij Eiland');
    assert.ok(String(parsed.text).includes(`${site.running.url}${location}`), 'the link to this server');
  });
});

/**
 * The outbox in storage (docs/operations.md §12), on both engines: a new registration or contact
 * message puts its e-mail in the outbox in the same transaction; a message is leased by one caller
 * at a time, counted as tried, and settled as sent, to retry, set aside or released; it goes with
 * what it is about, and a sent one with the retention job.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StorageUnavailableError, type OutboxMessage, type Storage } from '../src/storage/types.js';
import { useEngines } from './helpers/engines.js';
import { REGISTRATION, everyTable, NO_ROWS } from './helpers/temp-storage.js';
import { registrations } from '../src/forms/registration.js';
import { contactMessages } from '../src/forms/contact.js';
import { waitFor } from './helpers/wait.js';

const { engines } = useEngines();
const CONTACT = { naam: 'Bob', email: 'bob@voorbeeld.nl', onderwerp: 'vraag', bericht: 'Een vraag over de rondleiding.' };
const key = (n: number) => `0b0e6e1c-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** Registration n, at an address of its own: one address gets at most 3 e-mails a day. */
const person = (n: number) => ({ ...REGISTRATION, naam: `Persoon ${n}`, email: `persoon${n}@voorbeeld.nl` });
const LEASE_MS = 60_000;
/** A lease or a delay a test waits out: long beside one query, even on a busy machine. */
const LEASE_END_MS = 700;

/**
 * Leases until a message is due: the lease or delay has ended on the database's clock, the one
 * clock of leases (src/storage/engine.ts). A read that finds nothing due changes nothing.
 * @returns what the first read that found something leased
 */
async function leaseWhenDue(storage: Storage): Promise<OutboxMessage[]> {
  let leased: OutboxMessage[] = [];
  await waitFor(async () => (leased = await storage.leaseMail(10, LEASE_MS)).length > 0, 10 * LEASE_END_MS);
  return leased;
}

for (const [engine, open] of engines) {
  describe(`the outbox: ${engine} (docs/operations.md §12)`, () => {
    it('holds one message per new registration and contact message, leased with its kind and the row it is about', async () => {
      const { storage } = await open();
      const registration = await registrations(storage).save(key(1), REGISTRATION);
      await registrations(storage).save(key(1), REGISTRATION); // the same post again: stored once, mailed once
      const contact = await contactMessages(storage).save(key(2), CONTACT);
      const leased = await storage.leaseMail(10, LEASE_MS);
      assert.deepEqual(
        leased.map(({ id, lease, ...rest }) => rest).sort((a, b) => a.kind.localeCompare(b.kind)),
        [
          { kind: 'contact', about: contact.id, attempts: 1 },
          { kind: 'registration', about: registration.id, attempts: 1 },
        ],
      );
      assert.equal(new Set(leased.map((m) => m.id)).size, 2);
      await storage.close();
    });

    it('leases a message to one caller: not again while leased, again once the lease has ended', async () => {
      const { storage, reopen } = await open();
      await registrations(storage).save(key(1), REGISTRATION);
      const other = await reopen();
      const [first] = await storage.leaseMail(10, LEASE_END_MS);
      assert.ok(first);
      assert.deepEqual(await other.leaseMail(10, LEASE_END_MS), [], 'leased by the first instance');
      const [again] = await leaseWhenDue(other);
      assert.ok(again);
      assert.deepEqual({ id: again.id, attempts: again.attempts }, { id: first.id, attempts: 2 });
      assert.notEqual(again.lease, first.lease, 'a lease of its own');
      // The first caller's late word changes nothing: the message is the other's now.
      await storage.settleMail(first, { state: 'sent' });
      await other.settleMail(again, { state: 'released' });
      assert.deepEqual((await storage.leaseMail(10, LEASE_MS)).map((m) => [m.id, m.attempts]), [[first.id, 2]], 'not marked sent by the ended lease');
      await Promise.all([storage.close(), other.close()]);
    });

    it('gives two instances leasing at once disjoint messages, all of them', async () => {
      const { storage, reopen } = await open();
      for (let n = 1; n <= 20; n++) await registrations(storage).save(key(n), person(n));
      const other = await reopen();
      const batches = await Promise.all([storage.leaseMail(20, LEASE_MS), other.leaseMail(20, LEASE_MS), storage.leaseMail(20, LEASE_MS), other.leaseMail(20, LEASE_MS)]);
      const ids = batches.flat().map((m) => m.id);
      assert.equal(ids.length, 20, 'each message leased once');
      assert.equal(new Set(ids).size, 20);
      await Promise.all([storage.close(), other.close()]);
    });

    it('settles a send: sent is never leased again; retry after its delay, counted; set aside never; released at once, not counted', async () => {
      const { storage } = await open();
      const names = new Map<string, string>();
      for (let n = 1; n <= 4; n++) names.set((await registrations(storage).save(key(n), person(n))).id, `Persoon ${n}`);
      const leased = await storage.leaseMail(10, LEASE_MS);
      const byName = (naam: string) => leased.find((m) => names.get(m.about) === naam)!;
      await storage.settleMail(byName('Persoon 1'), { state: 'sent' });
      await storage.settleMail(byName('Persoon 2'), { state: 'retry', delayMs: LEASE_END_MS, error: '421 4.3.2 Service not available' });
      await storage.settleMail(byName('Persoon 3'), { state: 'set_aside', error: '550 5.1.1 Mailbox unavailable' });
      await storage.settleMail(byName('Persoon 4'), { state: 'released' });
      const now = await storage.leaseMail(10, LEASE_MS);
      assert.deepEqual(now.map((m) => [names.get(m.about), m.attempts]), [['Persoon 4', 1]], 'the released one, its try not counted');
      const later = await leaseWhenDue(storage);
      assert.deepEqual(later.map((m) => [names.get(m.about), m.attempts]), [['Persoon 2', 2]], 'the retried one, after its delay');
      await storage.close();
    });

    it('deletes a message with its registration (erasure) and with its contact message (retention); a sent one a day after', async () => {
      const { storage } = await open();
      const erased = await registrations(storage).save(key(1), REGISTRATION);
      await contactMessages(storage).save(key(2), CONTACT);
      const sent = await registrations(storage).save(key(3), { ...REGISTRATION, naam: 'Verzonden' });
      const leased = await storage.leaseMail(10, LEASE_MS);
      const mail = leased.find((m) => m.about === sent.id)!;
      await storage.settleMail(mail, { state: 'sent' });
      for (const other of leased.filter((m) => m !== mail)) await storage.settleMail(other, { state: 'released' }); // due again
      await registrations(storage).erase(erased.id);
      assert.deepEqual(await storage.deleteExpired(everyTable(new Date(0)), new Date(Date.now() - 60_000)), { rows: NO_ROWS, mail: 0 }, 'nothing is that old, the sent message not yet');
      assert.deepEqual(await storage.deleteExpired(everyTable(new Date(0)), new Date(Date.now() + 60_000)), { rows: NO_ROWS, mail: 1 });
      await storage.settleMail(mail, { state: 'released' }); // gone: settling it brings nothing back
      assert.deepEqual((await storage.leaseMail(10, LEASE_MS)).map((m) => m.kind), ['contact'], 'the erased registration took its message along');
      await storage.deleteExpired(everyTable(new Date(Date.now() + 60_000)), new Date(0));
      await storage.settleMail(leased.find((m) => m.kind === 'contact')!, { state: 'released' });
      assert.deepEqual(await storage.leaseMail(10, 0), [], 'no message left about anyone');
      await storage.close();
    });

    it('sends one address at most 3 e-mails a day, whatever the form, the case or the form of its domain; the rest suppressed', async () => {
      const { storage } = await open();
      const forms = ['Anna@Münster.de', 'anna@MÜNSTER.de', 'ANNA@xn--mnster-3ya.de', 'anna@münster.de', 'anna@xn--mnster-3ya.DE'];
      const saved = [];
      for (const [n, email] of forms.entries()) {
        saved.push(n % 2 === 0 ? await registrations(storage).save(key(n), { ...REGISTRATION, email }) : await contactMessages(storage).save(key(n), { ...CONTACT, email }));
      }
      assert.deepEqual(saved.map((s) => [s.created, s.suppressed]), [[true, false], [true, false], [true, false], [true, true], [true, true]]);
      assert.deepEqual((await registrations(storage).save(key(0), REGISTRATION)).suppressed, false, 'a repeated post stores and mails nothing');
      const other = await registrations(storage).save(key(9), person(9));
      assert.equal(other.suppressed, false, 'another address has its own 3');
      assert.equal((await storage.leaseMail(10, LEASE_MS)).length, 4, 'the suppressed ones are never leased');
      assert.deepEqual(await storage.deleteExpired(everyTable(new Date(0)), new Date(Date.now() + 60_000)), { rows: NO_ROWS, mail: 2 }, 'the suppressed ones are kept a day');
      await storage.close();
    });

    it('counts an inbox, not a row: register, erase, register again to one address gets 3 e-mails, however spelt', async () => {
      const { storage } = await open();
      // One Gmail inbox in six spellings: a subaddress, dots, the other domain, the case.
      const spellings = ['doel.wit@gmail.com', 'doelwit+1@gmail.com', 'd.o.e.l.w.i.t+x@googlemail.com', 'DoelWit@Gmail.com', 'doelwit@googlemail.com', 'doelwit+erase@gmail.com'];
      const suppressed = [];
      for (const [n, email] of spellings.entries()) {
        const saved = await registrations(storage).save(key(n), { ...REGISTRATION, email });
        suppressed.push(saved.suppressed);
        // The person erases it, its e-mail's outbox row with it: the inbox's count stays.
        assert.ok(await registrations(storage).erase(saved.id));
      }
      assert.deepEqual(suppressed, [false, false, false, true, true, true]);
      const elsewhere = await registrations(storage).save(key(20), { ...REGISTRATION, email: 'doelwit@voorbeeld.nl' });
      assert.equal(elsewhere.suppressed, false, 'the same local part at another domain is another inbox');
      await storage.close();
    });

    it('lets two instances saving at once for one address send it 3 e-mails, no more', async () => {
      const { storage, reopen } = await open();
      const other = await reopen();
      const saved = await Promise.all(Array.from({ length: 20 }, (_, n) => registrations((n % 2 === 0 ? storage : other)).save(key(n), { ...REGISTRATION, naam: `Persoon ${n}` })));
      assert.equal(saved.filter((s) => !s.suppressed).length, 3);
      assert.equal((await storage.leaseMail(30, LEASE_MS)).length, 3);
      await Promise.all([storage.close(), other.close()]);
    });

    it('stores a registration with its message or not at all: an outbox that refuses leaves no registration', async () => {
      const { storage, refuseMail } = await open();
      await refuseMail();
      await assert.rejects(registrations(storage).save(key(1), REGISTRATION), StorageUnavailableError);
      await assert.rejects(contactMessages(storage).save(key(2), CONTACT), StorageUnavailableError);
      assert.equal(await storage.countRegistrations(), 0);
      await storage.close();
    });
  });
}

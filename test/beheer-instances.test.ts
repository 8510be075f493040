/**
 * Beheer on PostgreSQL behind several instances (docs/beheer.md §2, §4): a session started on one
 * instance is live on the other and ended there for both; the lists' search folds accents there
 * too, and its keyset pages hold.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BEHEER, LOGIN_PATH } from '../src/beheer/route.js';
import { contactMessages } from '../src/forms/contact.js';
import { registrations } from '../src/forms/registration.js';
import { openPostgres } from '../src/storage/index.js';
import { startApp } from './helpers/app.js';
import { get, post, signIn } from './helpers/beheer.js';
import { CONTACT_VALID, VALID } from './helpers/form.js';
import { usePostgres } from './helpers/postgres.js';
import { TEST_MIGRATIONS } from './helpers/temp-storage.js';

const cluster = usePostgres();

describe('beheer on two instances of one PostgreSQL (docs/beheer.md §2)', () => {
  it('shares a session between the instances, ended on one for both, and searches folded', async (t) => {
    const url = await cluster.createDatabase();
    const [one, two] = await Promise.all([openPostgres({ url, poolSize: 2 }, TEST_MIGRATIONS, { notify: true }), openPostgres({ url, poolSize: 2 }, TEST_MIGRATIONS, { notify: true })]);
    const a = await startApp({ storage: one });
    const b = await startApp({ storage: two });
    t.after(async () => {
      await Promise.all([a.close(), b.close()]);
      await Promise.all([one!.close(), two!.close()]);
    });
    const saved = await registrations(a.storage).save(crypto.randomUUID(), { ...VALID, naam: 'Zoë Ärnhem', personen: Number(VALID.personen), interesses: [VALID.interesses].flat() } as never);
    const signed = await signIn(a, 'admin');
    const onB = await get(b, BEHEER, signed);
    assert.equal(onB.status, 200);
    assert.match((await get(b, '/beheer/registration?q=ZOE%20ARNHEM', signed)).body, new RegExp(saved.id));
    assert.match((await get(b, '/beheer/registration?interesses=' + [VALID.interesses].flat()[0], signed)).body, new RegExp(saved.id));
    assert.equal((await post(b, `${BEHEER}/uitloggen`, {}, signed)).headers.location, LOGIN_PATH);
    assert.equal((await get(a, BEHEER, signed)).status, 303);
  });

  it('enqueues a contact message’s notification in its transaction on PostgreSQL too', async (t) => {
    const url = await cluster.createDatabase();
    const storage = await openPostgres({ url, poolSize: 2 }, TEST_MIGRATIONS, { notify: true });
    t.after(() => storage.close());
    const saved = await contactMessages(storage).save(crypto.randomUUID(), CONTACT_VALID as never);
    assert.deepEqual(new Set((await storage.staff.mailStates(saved.id)).map(({ kind, state }) => `${kind} ${state}`)), new Set(['contact pending', 'notify:contact pending']), 'the receipt and the notification');
  });
});

/**
 * A person's own registration (docs/pages.md §7): downloaded exactly as stored, erased after one
 * more question (the secret address then answers 404), logged and counted without anything of
 * the person, and never erased by a post without its token.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMetrics } from '../src/metrics/index.js';
import type { Storage } from '../src/storage/types.js';
import { useApp, withApp, type SuiteTestApp } from './helpers/app.js';
import { openForm, postForm, VALID } from './helpers/form.js';
import { tempStorage } from './helpers/temp-storage.js';
import { registrations } from '../src/forms/registration.js';

/** Registers the valid registration and returns its id. */
async function register(app: Pick<SuiteTestApp, 'port' | 'url'>): Promise<string> {
  const res = await postForm(app, '/aanmelden', VALID);
  assert.equal(res.status, 303);
  const id = /^\/aanmeldingen\/([0-9a-f-]{36})$/.exec(String(res.headers.location))?.[1];
  assert.ok(id, `redirected to ${res.headers.location}`);
  return id;
}

describe('a person’s own registration (docs/pages.md §7)', () => {
  const metrics = createMetrics();
  const app = useApp({ metrics });

  it('offers the download and the erasure on the confirmation page, without JavaScript', async () => {
    const id = await register(app);
    const page = await app.request(`/aanmeldingen/${id}`);
    assert.equal(page.status, 200);
    assert.match(page.body, new RegExp(`<a href="/aanmeldingen/${id}/gegevens" download="eiland-aanmelding.json">Download mijn gegevens</a>`));
    assert.match(page.body, new RegExp(`<form action="/aanmeldingen/${id}/verwijderen" method="post"><input type="hidden" name="_csrf" value="[^"]+"/><button type="submit">Verwijder mijn aanmelding</button></form>`));
  });

  it('downloads the registration exactly as stored, as an attachment no cache keeps', async () => {
    const id = await register(app);
    const res = await app.request(`/aanmeldingen/${id}/gegevens`);
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(res.headers['content-disposition'], 'attachment; filename="eiland-aanmelding.json"');
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(res.headers['x-robots-tag'], 'noindex');
    const stored = await registrations(app.storage).find(id);
    assert.deepEqual(JSON.parse(res.body), JSON.parse(JSON.stringify(stored)));
    assert.equal(JSON.parse(res.body).email, VALID.email, 'the address as stored, not masked');
    assert.equal((await app.request(`/aanmeldingen/${id}/gegevens`, { method: 'POST' })).status, 405);
  });

  it('asks once more, erases on the confirmed post, and the secret address then answers 404', async () => {
    const id = await register(app);
    const session = await openForm(app, `/aanmeldingen/${id}`);
    const asked = await postForm(app, `/aanmeldingen/${id}/verwijderen`, {}, session);
    assert.equal(asked.status, 200);
    assert.match(asked.body.replaceAll('<!-- -->', ''), /Weet je zeker dat je de aanmelding van Anna de Vries wilt verwijderen\?/);
    assert.match(asked.body, /name="bevestigd" value="ja"/);
    assert.ok(await registrations(app.storage).find(id), 'nothing erased by the first post');
    assert.equal((await app.request(`/aanmeldingen/${id}/verwijderen`)).status, 200, 'a GET asks the same');

    const before = app.logs().length;
    const erased = await postForm(app, `/aanmeldingen/${id}/verwijderen`, { bevestigd: 'ja' }, session);
    assert.equal(erased.status, 303);
    assert.equal(erased.headers.location, '/aanmelding-verwijderd');
    assert.equal(await registrations(app.storage).find(id), undefined);
    for (const path of [`/aanmeldingen/${id}`, `/aanmeldingen/${id}/gegevens`, `/aanmeldingen/${id}/verwijderen`]) assert.equal((await app.request(path)).status, 404, path);
    const done = await app.request('/aanmelding-verwijderd');
    assert.equal(done.status, 200);
    assert.match(done.body, /<h1>Je aanmelding is verwijderd<\/h1>/);

    const lines = app.rawLogs().slice(before);
    assert.equal(lines.filter((l) => JSON.parse(l).event === 'registration_erased').length, 1);
    for (const secret of [id, String(VALID.naam), String(VALID.email)]) assert.ok(!lines.some((l) => l.includes(secret)), `no log line holds ${secret}`);
    const counted = (await metrics.registry.getSingleMetric('eiland_form_posts_total')!.get()).values;
    assert.deepEqual(['asked', 'erased'].map((outcome) => counted.find((v) => v.labels.outcome === outcome)?.value), [1, 1], 'the question asked again is counted as asked, not as stored');
    assert.equal(counted.find((v) => v.labels.form === `/aanmeldingen/:id/verwijderen` && v.labels.outcome === 'stored'), undefined);
  });

  it('of two confirmed erasures at once, one erases (303, one log line, one count) and the other answers 404', async () => {
    const temp = await tempStorage();
    // Once armed, both posts read the registration before either deletes it: each find waits for the other.
    let armed = false;
    let arrived = 0;
    let bothFound!: () => void;
    const together = new Promise<void>((resolve) => (bothFound = resolve));
    const racing: Storage = {
      ...temp.storage,
      find: async (table, id) => {
        const found = await temp.storage.find(table, id);
        if (!armed) return found;
        if (++arrived === 2) bothFound();
        await together;
        return found;
      },
    };
    const counts = createMetrics();
    try {
      await withApp({ storage: racing, metrics: counts }, async (site) => {
        const id = await register(site);
        const session = await openForm(site, `/aanmeldingen/${id}`);
        armed = true;
        const answers = await Promise.all([1, 2].map(() => postForm(site, `/aanmeldingen/${id}/verwijderen`, { bevestigd: 'ja' }, session)));
        assert.deepEqual(answers.map((r) => r.status).sort(), [303, 404]);
        assert.equal(site.logs().filter((l) => l.event === 'registration_erased').length, 1);
        const counted = (await counts.registry.getSingleMetric('eiland_form_posts_total')!.get()).values;
        assert.deepEqual(['erased', 'rejected'].map((outcome) => counted.find((v) => v.labels.outcome === outcome)?.value), [1, 1]);
      });
    } finally {
      await temp.storage.close();
      await temp.remove();
    }
  });

  it('erases nothing for a post without its token, or for an id that is not a UUID', async () => {
    const id = await register(app);
    const session = await openForm(app, `/aanmeldingen/${id}`);
    const forged = await postForm(app, `/aanmeldingen/${id}/verwijderen`, { bevestigd: 'ja' }, { ...session, token: 'vals' });
    assert.equal(forged.status, 403);
    assert.ok(await registrations(app.storage).find(id));
    for (const path of ['/aanmeldingen/geen-uuid/verwijderen', '/aanmeldingen/geen-uuid/gegevens']) assert.equal((await app.request(path)).status, 400, path);
  });
});

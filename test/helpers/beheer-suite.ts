/**
 * Beheer's server suite (docs/beheer.md §1–§7), run on each engine (test/beheer.test.ts on SQLite,
 * test/beheer-postgres.test.ts on PostgreSQL): the staff command and its links, passwords, the
 * login with its one answer and its lock, sessions kept as digests and ended where they must be,
 * every route of the table denied by default, the lists derived from the forms with search,
 * filters and keyset pages, answering, the CSV export, erasure, and the audit log.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BEHEER, LOGIN_PATH } from '../../src/beheer/route.js';
import { beheerRoutes, PAGE_SIZE } from '../../src/beheer/routes.js';
import { ABSOLUTE_MS, digest, IDLE_MS } from '../../src/beheer/session.js';
import { AUDIT_KEPT_DAYS } from '../../src/retention.js';
import { UsageError } from '../../src/beheer/staff-command.js';
import { FAILURES_BEFORE_LOCK } from '../../src/beheer/login.js';
import { registrations } from '../../src/forms/registration.js';
import { contactMessages } from '../../src/forms/contact.js';
import { useApp, raw, freshAddress } from './app.js';
import { FORMS as TEST_FORMS } from '../fixtures/forms.js';
import type { Storage } from '../../src/storage/types.js';
import { get, linkIn, login, PASSWORD, post, setPassword, signIn, staff } from './beheer.js';
import { CONTACT_VALID, VALID } from './form.js';
import { createMetrics } from '../../src/metrics/index.js';
import { countStorageErrors } from '../../src/metrics/storage.js';
import { StorageUnavailableError } from '../../src/storage/types.js';

/**
 * Registers beheer's server suite on an engine's storage.
 * @param engine its name in the suites' titles, e.g. `SQLite`
 * @param storage gives the app's storage (run in a `before` hook): `{}` for a temporary SQLite
 *   database, else one opened on the engine (closed by the caller's own `after`)
 */
export function beheerSuite(engine: string, storage: () => Promise<{ storage?: Storage }>): void {
  describe(`beheer on ${engine}`, () => {
    const metrics = createMetrics();
    const app = useApp(async () => ({ metrics, ...(await storage()) }), { FORM_RATE_LIMIT: '1000/1m' });

    /** `eiland_logins_total{outcome}` now. */
    const logins = async (outcome: string) => Number(new RegExp(`^eiland_logins_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(await metrics.registry.metrics())?.[1] ?? 0);

    /** Stores a registration with some values changed, and returns its id. */
    async function registration(values: Partial<typeof VALID> = {}): Promise<string> {
      const saved = await registrations(app.storage).save(crypto.randomUUID(), { ...VALID, personen: Number(VALID.personen), interesses: [VALID.interesses].flat(), ...values } as never);
      return saved.id;
    }

    describe(`staff accounts on ${engine} (docs/beheer.md §1)`, () => {
      it('adds, lists, resets and disables accounts, with exit code 1 for an unknown or existing one', async () => {
        const email = `lijst-${Date.now()}@example.org`;
        const added = await staff(app, 'add', email.toUpperCase(), '--role', 'reader');
        assert.equal(added.code, 0);
        assert.match(added.out, new RegExp(`${app.url}/beheer/wachtwoord/[A-Za-z0-9_-]{43}`));
        assert.match((await staff(app, 'list')).out, new RegExp(`${email}\\tlezer\\twacht op wachtwoord`));
        assert.equal((await staff(app, 'add', email, '--role', 'admin')).code, 1);
        assert.equal((await staff(app, 'reset', 'niemand@example.org')).code, 1);
        assert.equal((await staff(app, 'disable', email)).code, 0);
        assert.match((await staff(app, 'list')).out, new RegExp(`${email}\\tlezer\\tuitgeschakeld`));
      });

      it('refuses a command line that is not one with a usage error', async () => {
        for (const args of [[], ['remove', 'a@example.org'], ['add', 'geen-adres', '--role', 'reader'], ['add', 'a@example.org'], ['add', 'a@example.org', '--role', 'koning']]) {
          await assert.rejects(staff(app, ...args), UsageError, JSON.stringify(args));
        }
      });

      it('sets a password once through its link, which is then gone; an expired link is 404', async () => {
        const added = await staff(app, 'add', `link-${Date.now()}@example.org`, '--role', 'reader');
        const link = linkIn(added.out);
        assert.equal((await get(app, link)).status, 200);
        assert.equal((await setPassword(app, link)).headers.location, `${LOGIN_PATH}?wachtwoord=ingesteld`);
        assert.equal((await get(app, link)).status, 404);
        assert.equal(await app.storage.staff.useLink(digest(link.split('/').pop()!), Date.now()), undefined, 'used');
        let out = '';
        const old = await import('../../src/beheer/staff-command.js').then(({ staffCommand }) =>
          staffCommand(['add', `oud-${Date.now()}@example.org`, '--role', 'reader'], app.storage, app.url, { write: (text: string) => ((out += text), true) } as never, Date.now() - 25 * 60 * 60 * 1000),
        );
        assert.equal(old, 0);
        assert.equal((await get(app, linkIn(out))).status, 404);
      });

      it('takes 15 to 128 characters after NFKC, the two the same, and keeps only a scrypt hash', async () => {
        const email = `wachtwoord-${Date.now()}@example.org`;
        const link = linkIn((await staff(app, 'add', email, '--role', 'reader')).out);
        for (const [password, repeated, message] of [
          ['x'.repeat(14), 'x'.repeat(14), 'minstens 15'],
          ['x'.repeat(129), 'x'.repeat(129), 'hoogstens 128'],
          ['een lange zin als wachtwoord', 'een andere zin als wachtwoord', 'niet gelijk'],
        ] as const) {
          const res = await setPassword(app, link, password, repeated);
          assert.equal(res.status, 422, password);
          assert.match(res.body, new RegExp(message));
        }
        // Full-width letters are the same password after NFKC.
        const fullWidth = 'ｗａｃｈｔｗｏｏｒｄ van vijftien';
        assert.equal((await setPassword(app, link, fullWidth)).status, 303);
        const account = await app.storage.staff.accountByEmail(email);
        assert.match(account!.passwordHash!, /^scrypt\$17\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
        assert.equal((await login(app, email, 'wachtwoord van vijftien')).status, 303);
        assert.ok(!app.rawLogs().some((line) => line.includes('vijftien')), 'no password in the log');
      });
    });

    describe(`login and sessions on ${engine} (docs/beheer.md §2)`, () => {
      it('answers an unknown address and a wrong password the same, and logs neither address', async () => {
        const reader = await signIn(app, 'reader');
        const from = app.logs().length;
        const counted = { unknown: await logins('unknown'), password: await logins('password') };
        const unknown = await login(app, 'onbekend@example.org', PASSWORD);
        const wrong = await login(app, reader.email, 'een verkeerd wachtwoord!');
        assert.equal(unknown.status, 401);
        assert.equal(wrong.status, 401);
        const problem = (body: string) => /<div role="alert"[^>]*><p>([^<]+)<\/p>/.exec(body)?.[1];
        assert.ok(problem(unknown.body));
        assert.equal(problem(unknown.body), problem(wrong.body));
        const lines = app.logs().slice(from);
        assert.equal(lines.filter((line) => line.event === 'login_failed').length, 2);
        assert.deepEqual({ unknown: await logins('unknown'), password: await logins('password') }, { unknown: counted.unknown + 1, password: counted.password + 1 });
        assert.ok(!JSON.stringify(lines).includes(reader.email) && !JSON.stringify(lines).includes('onbekend@example.org'));
      });

      it('sets __Host-less, HttpOnly, SameSite=Strict on plain-HTTP loopback, keeps only the id’s digest, and a new id at each login', async () => {
        const reader = await signIn(app, 'reader');
        const res = await login(app, reader.email, PASSWORD);
        const cookie = [res.headers['set-cookie']].flat().find((c) => c!.startsWith('beheer='))!;
        assert.match(cookie, /^beheer=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
        const id = cookie.slice('beheer='.length, cookie.indexOf(';'));
        assert.notEqual(`beheer=${id}`, reader.cookie);
        assert.ok(await app.storage.staff.session(digest(id)));
        assert.equal(await app.storage.staff.session(id), undefined);
      });

      it('refuses beheer over plain HTTP to another name', async () => {
        const res = await raw(app.port, LOGIN_PATH, { headers: { Host: 'eiland.example' } });
        assert.equal(res.status, 403);
      });

      it('ends a session at logout, when the account is disabled and when its password is reset', async () => {
        const out = await signIn(app, 'reader');
        assert.equal((await post(app, `${BEHEER}/uitloggen`, {}, out)).headers.location, LOGIN_PATH);
        assert.equal((await get(app, BEHEER, out)).status, 303);
        const disabled = await signIn(app, 'reader');
        await staff(app, 'disable', disabled.email);
        assert.equal((await get(app, BEHEER, disabled)).status, 303);
        const reset = await signIn(app, 'reader');
        await staff(app, 'reset', reset.email);
        assert.equal((await get(app, BEHEER, reset)).status, 303);
      });

      it('ends a session after 30 minutes idle and 12 hours in all', async () => {
        const reader = await signIn(app, 'reader');
        const account = await app.storage.staff.accountByEmail(reader.email);
        for (const [created, seen] of [
          [Date.now() - 31 * 60_000, Date.now() - 31 * 60_000],
          [Date.now() - 13 * 3_600_000, Date.now() - 60_000],
        ]) {
          const id = crypto.randomUUID().replaceAll('-', '').padEnd(43, 'x');
          await app.storage.staff.startSession(digest(id), account!.id, created!);
          await app.storage.staff.touchSession(digest(id), seen!);
          const res = await get(app, BEHEER, { ...reader, cookie: `beheer=${id}` });
          assert.equal(res.status, 303);
          assert.equal(await app.storage.staff.session(digest(id)), undefined, 'its row deleted');
        }
      });

      it(`locks an account after ${FAILURES_BEFORE_LOCK} failures, the right password refused then`, async () => {
        const reader = await signIn(app, 'reader');
        for (let i = 0; i < FAILURES_BEFORE_LOCK; i++) assert.equal((await login(app, reader.email, `fout wachtwoord nummer ${i}`)).status, 401);
        assert.equal((await login(app, reader.email, PASSWORD)).status, 401);
        const account = await app.storage.staff.accountByEmail(reader.email);
        assert.ok(account!.lockedUntil! > Date.now() + 14 * 60_000);
        assert.ok((await logins('locked')) >= 1);
        assert.ok((await logins('succeeded')) >= 1);
      });

      it('returns to the page asked for, a same-origin path only', async () => {
        const reader = await signIn(app, 'reader');
        assert.equal((await login(app, reader.email, PASSWORD, freshAddress(), '?terug=%2Fbeheer%2Fcontact')).headers.location, '/beheer/contact');
        assert.equal((await login(app, reader.email, PASSWORD, freshAddress(), '?terug=%2F%2Fevil.example')).headers.location, BEHEER);
      });
    });

    describe(`deny by default on ${engine} (docs/beheer.md §3)`, () => {
      const routes = beheerRoutes(TEST_FORMS);
      /** The only routes for anyone: the login and a password link. */
      const open = (table: typeof routes) => table.filter((route) => route.access === 'anyone').map((route) => route.path);

      it('has only the login and the password link open to anyone; a route added for anyone fails this', () => {
        assert.deepEqual(open(routes), [LOGIN_PATH, `${BEHEER}/wachtwoord/:token`]);
        assert.notDeepEqual(open([...routes, { path: `${BEHEER}/control`, access: 'anyone', answers: 'page' }]), [LOGIN_PATH, `${BEHEER}/wachtwoord/:token`]);
      });

      it('walks every route: anonymous pages go to the login, downloads get 401, a lezer gets 403 on a beheerder’s; every answer no-store and noindex', async () => {
        const id = await registration();
        const reader = await signIn(app, 'reader');
        const fill = (path: string) => path.replace(':form', 'registration').replace(':id', id).replace(':token', 'x'.repeat(43));
        for (const route of routes) {
          for (const method of [route.get && 'GET', route.post && 'POST'].filter((m) => m !== undefined)) {
            const path = fill(route.path);
            const anonymous = method === 'GET' ? await get(app, path) : await post(app, path, {});
            assert.equal(anonymous.headers['cache-control'], 'no-store', `${method} ${route.path}`);
            assert.equal(anonymous.headers['x-robots-tag'], 'noindex', `${method} ${route.path}`);
            if (route.access === 'anyone') continue;
            if (route.answers === 'download') assert.equal(anonymous.status, 401, `${method} ${route.path}`);
            else {
              assert.equal(anonymous.status, 303, `${method} ${route.path}`);
              assert.ok(String(anonymous.headers.location).startsWith(`${LOGIN_PATH}?terug=`), `${method} ${route.path}`);
            }
            if (route.access === 'admin') {
              const refused = method === 'GET' ? await get(app, path, reader) : await post(app, path, {}, reader);
              assert.equal(refused.status, 403, `${method} ${route.path} as lezer`);
            }
          }
        }
      });

      it('refuses a signed-in post without the session’s token', async () => {
        const admin = await signIn(app, 'admin');
        const other = await signIn(app, 'admin');
        const from = app.logs().length;
        assert.equal((await post(app, `${BEHEER}/uitloggen`, { _csrf: other.token }, admin)).status, 403);
        assert.deepEqual(app.logs().slice(from).filter((line) => line.event === 'csrf_rejected').map((line) => line.reason), ['token']);
        assert.equal((await get(app, BEHEER, admin)).status, 200, 'still signed in');
      });

      it('counts a failure of beheer’s storage in eiland_storage_errors_total', async () => {
        const metrics = createMetrics();
        const failing = { ...app.storage, staff: { ...app.storage.staff, session: () => Promise.reject(new StorageUnavailableError('session', new Error('gone'))) } };
        await assert.rejects(countStorageErrors(failing, metrics).staff.session('x'), StorageUnavailableError);
        assert.match(await metrics.registry.metrics(), /^eiland_storage_errors_total\{operation="session"\} 1$/m);
      });

      it('keeps beheer out of robots.txt and the sitemap', async () => {
        assert.match((await get(app, '/robots.txt')).body, /^Disallow: \/beheer$/m);
      });
    });

    describe(`the lists on ${engine} (docs/beheer.md §4)`, () => {
      it('shows every form with its totals, and what is new since the account last looked', async () => {
        const reader = await signIn(app, 'reader');
        await registration();
        const overview = await get(app, BEHEER, reader);
        // The test app's own form too (test/fixtures/appointment.ts): it is in beheer with no file of beheer touched.
        for (const form of TEST_FORMS.filter((f) => f.keep)) {
          assert.match(overview.body, new RegExp(`href="/beheer/${form.name}"`));
          assert.equal((await get(app, `/beheer/${form.name}`, reader)).status, 200, form.name);
        }
        assert.match(overview.body.replaceAll('<!-- -->', ''), /<a href="\/beheer\/registration">Aanmelden<\/a><\/th><td>\d+<\/td><td>\d+<\/td><td>[1-9]\d*<\/td>/);
        await get(app, '/beheer/registration', reader);
        const after = await get(app, BEHEER, reader);
        assert.match(after.body.replaceAll('<!-- -->', ''), /<a href="\/beheer\/registration">Aanmelden<\/a><\/th><td>\d+<\/td><td>\d+<\/td><td>0<\/td>/);
      });

      it('searches name and e-mail without case or accents, and filters on a choice', async () => {
        const unique = `Zoë Ämmer ${Date.now() % 100000}`;
        const id = await registration({ naam: unique, interesses: ['sport'] } as never);
        const reader = await signIn(app, 'reader');
        const folded = unique.normalize('NFKD').replace(/\p{M}/gu, '').toUpperCase();
        const found = await get(app, `/beheer/registration?q=${encodeURIComponent(folded)}`, reader);
        assert.match(found.body, new RegExp(`/beheer/registration/${id}`));
        assert.match((await get(app, `/beheer/registration?q=${encodeURIComponent(folded)}&interesses=sport`, reader)).body, new RegExp(id));
        assert.doesNotMatch((await get(app, `/beheer/registration?q=${encodeURIComponent(folded)}&interesses=muziek`, reader)).body, new RegExp(id));
        assert.doesNotMatch((await get(app, `/beheer/registration?q=${encodeURIComponent(folded)}&van=2999-01-01`, reader)).body, new RegExp(id));
      });

      it(`pages by ${PAGE_SIZE}, newest first, each page after the last row shown`, async () => {
        const tag = `Pagina ${Date.now() % 100000}`;
        const ids: string[] = [];
        for (let i = 0; i < PAGE_SIZE + 3; i++) ids.push(await registration({ naam: `${tag} ${i}` } as never));
        const reader = await signIn(app, 'reader');
        const first = await get(app, `/beheer/registration?q=${encodeURIComponent(tag)}`, reader);
        const shown = (body: string) => [...body.matchAll(/href="\/beheer\/registration\/([0-9a-f-]{36})"/g)].map((m) => m[1]);
        assert.equal(shown(first.body).length, PAGE_SIZE);
        const next = /href="(\/beheer\/registration\?[^"]+)" rel="next"/.exec(first.body)?.[1]?.replaceAll('&amp;', '&');
        assert.ok(next);
        const second = await get(app, next, reader);
        assert.equal(shown(second.body).length, 3);
        assert.deepEqual(new Set([...shown(first.body), ...shown(second.body)]), new Set(ids));
        assert.doesNotMatch(second.body, /rel="next"/);
      });

      it('shows a submission’s every kept field with its label, and 404 for an unknown one', async () => {
        const email = `detail-${Date.now()}@voorbeeld.nl`;
        const id = await registration({ email } as never);
        const reader = await signIn(app, 'reader');
        const detail = (await get(app, `/beheer/registration/${id}`, reader)).body.replaceAll('<!-- -->', '');
        for (const label of ['Naam', 'E-mailadres', 'Interesses', 'Ontvangen', 'E-mail']) assert.match(detail, new RegExp(`<dt>${label}</dt>`));
        assert.ok(detail.includes(email));
        assert.match(detail, /<dt>E-mail<\/dt><dd>e-mail aan de afzender: wordt verstuurd<\/dd>/);
        assert.equal((await get(app, `/beheer/registration/${crypto.randomUUID()}`, reader)).status, 404);
        assert.equal((await get(app, `/beheer/onbekend`, reader)).status, 404);
        assert.ok(!app.rawLogs().some((line) => line.includes(id)), 'the id, a capability, masked in the log');
      });
    });

    describe(`answering, export and erasure on ${engine} (docs/beheer.md §5–§6)`, () => {
      it('marks a contact message answered, by whom, and filters on it', async () => {
        const saved = await contactMessages(app.storage).save(crypto.randomUUID(), { ...CONTACT_VALID, naam: `Beantwoord ${Date.now()}` } as never);
        const admin = await signIn(app, 'admin');
        assert.equal((await post(app, `/beheer/contact/${saved.id}/beantwoord`, {}, admin)).status, 303);
        assert.match((await get(app, `/beheer/contact/${saved.id}`, admin)).body.replaceAll('<!-- -->', ''), new RegExp(`ja, door ${admin.email}`));
        assert.match((await get(app, '/beheer/contact?beantwoord=ja', admin)).body, new RegExp(saved.id));
        assert.doesNotMatch((await get(app, '/beheer/contact?beantwoord=nee', admin)).body, new RegExp(saved.id));
      });

      it('exports the list as CSV for Excel in Dutch: BOM, semicolons, CRLF, and a formula as text', async () => {
        const formula = '=HYPERLINK("http://x.example")';
        await registration({ naam: formula } as never);
        const reader = await signIn(app, 'reader');
        const res = await get(app, `/beheer/registration/export?q=${encodeURIComponent('hyperlink')}`, reader);
        assert.equal(res.status, 200);
        assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
        assert.match(String(res.headers['content-disposition']), /^attachment; filename="eiland-registration-\d{4}-\d{2}-\d{2}\.csv"$/);
        assert.ok(res.body.startsWith('\ufeffNaam;E-mailadres;'));
        const lines = res.body.slice(1).split('\r\n');
        assert.equal(lines.at(-1), '');
        assert.equal(lines.length, 3, 'the header, one row, the end');
        assert.ok(lines[1]!.startsWith(`"'=HYPERLINK(""http://x.example"")";`), lines[1]);
      });

      it('erases a submission with its e-mails for a beheerder after one more question, never for a lezer', async () => {
        const id = await registration();
        const reader = await signIn(app, 'reader');
        const admin = await signIn(app, 'admin');
        assert.equal((await post(app, `/beheer/registration/${id}/verwijderen`, { bevestigd: 'ja' }, reader)).status, 403);
        assert.equal((await post(app, `/beheer/registration/${id}/verwijderen`, {}, admin)).status, 200, 'asked again');
        assert.ok(await registrations(app.storage).find(id));
        const erased = await post(app, `/beheer/registration/${id}/verwijderen`, { bevestigd: 'ja' }, admin);
        assert.equal(erased.headers.location, '/beheer/registration');
        assert.equal(await registrations(app.storage).find(id), undefined);
        assert.deepEqual(await app.storage.staff.mailStates(id), []);
      });

      it('downloads a person’s data as JSON for a beheerder', async () => {
        const id = await registration();
        const admin = await signIn(app, 'admin');
        const res = await get(app, `/beheer/registration/${id}/gegevens`, admin);
        assert.equal(res.status, 200);
        assert.deepEqual(JSON.parse(res.body), JSON.parse(JSON.stringify(await registrations(app.storage).find(id))));
      });
    });

    describe(`the audit log on ${engine} (docs/beheer.md §7)`, () => {
      it('records who did what from where, ids only, and shows it to a beheerder alone', async () => {
        const id = await registration({ naam: `Geheim ${Date.now()}` } as never);
        const admin = await signIn(app, 'admin');
        const reader = await signIn(app, 'reader');
        await get(app, `/beheer/registration/${id}`, reader);
        await get(app, `/beheer/registration/export`, reader);
        const log = await app.storage.staff.auditLog(50);
        const mine = log.filter((entry) => entry.email === reader.email);
        assert.deepEqual(new Set(mine.map((entry) => entry.action)), new Set(['password_set', 'login', 'detail', 'export']));
        assert.equal(mine.find((entry) => entry.action === 'detail')?.about, id);
        assert.ok(mine.every((entry) => entry.address?.startsWith('127.')));
        assert.ok(typeof mine.find((entry) => entry.action === 'export')?.detail?.rows === 'number');
        assert.ok(!JSON.stringify(log).includes('Geheim'), 'nothing of a submission');
        assert.equal((await get(app, '/beheer/logboek', reader)).status, 403);
        assert.match((await get(app, '/beheer/logboek', admin)).body, new RegExp(reader.email));
      });

      it('is kept a year; ended sessions and used or expired links are swept with it', async () => {
        const reader = await signIn(app, 'reader');
        const account = (await app.storage.staff.accountByEmail(reader.email))!;
        const now = Date.now();
        await app.storage.staff.audit({ staffId: account.id, action: 'list', form: 'registration' }, now - (AUDIT_KEPT_DAYS + 1) * 86_400_000);
        await app.storage.staff.startSession(digest('oud'), account.id, now - 13 * 3_600_000);
        await app.storage.staff.addLink(digest('verlopen'), account.id, now - 1);
        const swept = await app.storage.staff.sweep(now, now - AUDIT_KEPT_DAYS * 86_400_000, IDLE_MS, ABSOLUTE_MS);
        assert.ok(swept >= 3, `swept ${swept}`);
        assert.equal(await app.storage.staff.session(digest('oud')), undefined);
        assert.ok((await app.storage.staff.auditLog(1000)).every((entry) => entry.at >= now - AUDIT_KEPT_DAYS * 86_400_000));
        assert.ok(await app.storage.staff.session(digest(reader.cookie.slice('beheer='.length))), 'a live session stays');
      });
    });
  });
}

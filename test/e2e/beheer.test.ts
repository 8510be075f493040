/**
 * Beheer in Chromium, with JavaScript on and off: an account made on the command line sets its
 * password through its one-time link and logs in; the overview, a list searched without accents
 * and filtered, a submission's page, the CSV export, marking a contact message answered, erasing
 * a registration, the audit log and the logout — every beheer page checked by axe-core
 * (WCAG 2.1 A/AA) on the way.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'puppeteer-core';
import { browserSuite, needsServer, withPage } from '../helpers/browser-suite.js';
import { CONTACT_VALID, postForm, VALID } from '../helpers/form.js';
import { withFailureArtifacts } from './kit.js';
import { violations } from '../helpers/axe.js';
import { linkIn, staff } from '../helpers/beheer.js';

const suite = browserSuite();

/** A password of the allowed length (15 to 128 characters). */
const PASSWORD = 'een zin die ik kan onthouden 42';

/**
 * Runs axe on the page shown and asserts it finds no WCAG 2.1 A/AA violation. axe needs timers:
 * a no-JS page gets scripts on for the check and off again before the next step, so what the
 * page does next is what a no-JS visitor's browser does.
 * @param name the page, for the failure message
 */
async function assertAccessible(page: Page, javaScript: boolean, name: string): Promise<void> {
  if (!javaScript) await page.setJavaScriptEnabled(true);
  try {
    assert.deepEqual(await violations(page), [], `axe violations on ${name}`);
  } finally {
    if (!javaScript) await page.setJavaScriptEnabled(false);
  }
}

/**
 * Does something that leaves the page (a click on a link or a submit button) and waits until the
 * next page is shown. Without JavaScript that is the next document's load. With it, a link is the
 * client router's: it swaps `<main>`'s content for the next page's (or, failing, loads the page),
 * and its scroll memory makes same-document navigations (`replaceState`) of its own, so the page
 * is waited for by its content: a marker put in `<main>` before is gone and the document loaded.
 */
async function follow(page: Page, javaScript: boolean, act: () => Promise<unknown>): Promise<void> {
  if (!javaScript) {
    await Promise.all([page.waitForNavigation(), act()]);
    return;
  }
  await page.evaluate(`document.querySelector('main').append(Object.assign(document.createElement('i'), { hidden: true, className: 'beheer-test-left' }))`);
  await Promise.all([page.waitForFunction(`document.readyState === 'complete' && document.querySelector('main h1') !== null && document.querySelector('main .beheer-test-left') === null`), act()]);
}

/** Clicks the element a selector finds and waits for the next page. */
async function clickThrough(page: Page, javaScript: boolean, selector: string): Promise<void> {
  const element = await page.$(selector);
  assert.ok(element, `the page ${page.url()} has ${selector}`);
  await follow(page, javaScript, () => element.click());
}

/** The path and query of the page shown. */
const where = (page: Page) => {
  const url = new URL(page.url());
  return { path: url.pathname, params: url.searchParams };
};

/** The `<h1>` of the page shown. */
const heading = (page: Page) => page.$eval('h1', (e) => e.textContent);

/** A submission page's fields: each `<dt>` label with its `<dd>` value. A string: tsx rewrites functions given to the page. */
async function details(page: Page): Promise<Record<string, string>> {
  const script = `JSON.stringify(Object.fromEntries([...document.querySelectorAll('main dl > div')].map((d) => [d.querySelector('dt').textContent, d.querySelector('dd').textContent])))`;
  return JSON.parse(String(await page.evaluate(script))) as Record<string, string>;
}

/** The href of each link in the list's table whose text is exactly `text`. */
async function rowLinks(page: Page, text: string): Promise<string[]> {
  const script = `JSON.stringify([...document.querySelectorAll('main table a')].filter((a) => a.textContent === ${JSON.stringify(text)}).map((a) => a.getAttribute('href')))`;
  return JSON.parse(String(await page.evaluate(script))) as string[];
}

/** The cells of the table row whose first cell's link goes to `href`. */
async function rowCells(page: Page, href: string): Promise<string[]> {
  const script = `JSON.stringify([...(document.querySelector('main table a[href=${JSON.stringify(href)}]')?.closest('tr')?.children ?? [])].map((c) => c.textContent))`;
  return JSON.parse(String(await page.evaluate(script))) as string[];
}

/** Submits the list's GET form with its `Toon` button. */
const show = (page: Page, javaScript: boolean) => clickThrough(page, javaScript, '::-p-aria(Toon[role="button"])');

describe('beheer in Chromium (staff side)', { skip: needsServer('the storage, to make an account and check an erasure') }, () => {
  for (const javaScript of [true, false]) {
    const mode = `JavaScript ${javaScript ? 'on' : 'off'}`;
    it(`an admin sets a password by link, logs in, finds a submission by an unaccented search and a filter, exports CSV, marks a message answered, erases a registration and logs out, with no axe violation on any page: ${mode}`, async () => {
      const unique = `${Date.now().toString(36)}${javaScript ? 'j' : 'n'}`;
      const email = `beheer-${Date.now()}-${javaScript}@example.org`;
      const naam = `Zoë Ämmer-${unique}`;
      const search = `zoe ammer-${unique}`;
      const sender = `Bram Bericht-${unique}`;

      // Two submissions, as visitors send them.
      const registered = await postForm(suite.local, '/aanmelden', { ...VALID, naam });
      const id = /^\/aanmeldingen\/([0-9a-f-]{36})$/.exec(String(registered.headers.location))?.[1];
      assert.ok(id, `the registration is stored (answer ${registered.status} ${String(registered.headers.location)})`);
      const sent = await postForm(suite.local, '/contact', { ...CONTACT_VALID, naam: sender });
      assert.equal(sent.status, 303, 'the contact message is stored');

      // The account, as `npm run staff -- add` makes it.
      const added = await staff({ ...suite.local, url: suite.app.url }, 'add', email, '--role', 'admin');
      assert.equal(added.code, 0, added.out);
      assert.ok(added.out.includes(`${suite.app.url}/beheer/wachtwoord/`), `a password link in: ${added.out}`);
      const link = `${suite.app.url}${linkIn(added.out)}`;

      await withPage(suite.chromium, { javaScript }, async ({ page, errors }) => {
        await withFailureArtifacts(page, `beheer ${javaScript ? 'js' : 'nojs'}`, async () => {
          // Pages share the browser's cookies: no session of an earlier run.
          await page.browserContext().deleteMatchingCookies({ name: 'beheer', url: suite.app.url });

          // The password link.
          await page.goto(link, { waitUntil: 'load' });
          assert.equal(await heading(page), 'Wachtwoord instellen');
          assert.match(await page.$eval('main', (e) => e.textContent ?? ''), new RegExp(`Kies een wachtwoord voor ${email.replace(/[.]/g, '\\.')}`));
          await assertAccessible(page, javaScript, 'the password page');
          await page.type('#wachtwoord', PASSWORD);
          await page.type('#herhaling', PASSWORD);
          await clickThrough(page, javaScript, '::-p-aria(Wachtwoord opslaan[role="button"])');

          // The login.
          assert.equal(where(page).path, '/beheer/inloggen');
          assert.equal(await heading(page), 'Inloggen bij beheer');
          assert.equal(await page.$eval('[role="status"]', (e) => e.textContent), 'Je wachtwoord is ingesteld. Log nu in.');
          await assertAccessible(page, javaScript, 'the login page');
          await page.type('#email', email);
          await page.type('#wachtwoord', PASSWORD);
          await clickThrough(page, javaScript, '::-p-aria(Inloggen[role="button"])');

          // The overview.
          assert.equal(where(page).path, '/beheer');
          assert.equal(await heading(page), 'Beheer');
          const forms = await page.$$eval('main table a', (links) => links.map((a) => a.getAttribute('href')));
          assert.ok(forms.includes('/beheer/registration') && forms.includes('/beheer/contact'), `the overview lists the forms: ${forms.join(', ')}`);
          await assertAccessible(page, javaScript, 'the overview');

          // The registrations: searched without accents, in lower case.
          await clickThrough(page, javaScript, 'main a[href="/beheer/registration"]');
          assert.equal(where(page).path, '/beheer/registration');
          assert.equal(await heading(page), 'Aanmelden: inzendingen');
          await assertAccessible(page, javaScript, 'the list of registrations');
          await page.type('#q', search);
          await show(page, javaScript);
          assert.equal(where(page).params.get('q'), search);
          assert.deepEqual(await rowLinks(page, naam), [`/beheer/registration/${id}`], `"${search}" finds ${naam}`);

          // A filter on a value it lacks hides it; on one it has, shows it.
          await page.select('#f-interesses', 'muziek');
          await show(page, javaScript);
          assert.deepEqual(await rowLinks(page, naam), [], 'interesses = muziek leaves it out');
          assert.ok(await page.$('::-p-text(Geen inzendingen gevonden.)'), 'and says nothing was found');
          await page.select('#f-interesses', 'sport');
          await show(page, javaScript);
          assert.equal(where(page).params.get('interesses'), 'sport');
          assert.equal(where(page).params.get('q'), search, 'the search is kept');
          assert.deepEqual(await rowLinks(page, naam), [`/beheer/registration/${id}`], 'interesses = sport keeps it');
          await assertAccessible(page, javaScript, 'the filtered list of registrations');

          // The export of what the list shows, fetched with the page's session (a download the browser would save).
          const href = await page.$eval('a[download][href*="/export"]', (a) => a.getAttribute('href'));
          const exportUrl = new URL(href!, page.url());
          assert.equal(exportUrl.pathname, '/beheer/registration/export');
          assert.equal(exportUrl.searchParams.get('interesses'), 'sport');
          if (!javaScript) await page.setJavaScriptEnabled(true);
          const csv = JSON.parse(
            String(
              await page.evaluate(
                `fetch(${JSON.stringify(href)}, { credentials: 'same-origin' }).then(async (r) => { const bytes = new Uint8Array(await r.arrayBuffer()); return JSON.stringify({ status: r.status, type: r.headers.get('content-type'), disposition: r.headers.get('content-disposition'), first: [...bytes.slice(0, 3)], text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes) }); })`,
              ),
            ),
          ) as { status: number; type: string; disposition: string; first: number[]; text: string };
          if (!javaScript) await page.setJavaScriptEnabled(false);
          assert.equal(csv.status, 200);
          assert.equal(csv.type, 'text/csv; charset=utf-8');
          assert.match(csv.disposition, /^attachment; filename="eiland-registration-\d{4}-\d{2}-\d{2}\.csv"$/);
          assert.deepEqual(csv.first, [0xef, 0xbb, 0xbf], 'the CSV begins with the UTF-8 byte order mark');
          const lines = csv.text.slice(1).split('\r\n');
          assert.match(lines[0]!, /^Naam;E-mailadres;/, 'a header of labels, separated by ;');
          assert.equal(lines.filter((line) => line.startsWith(`${naam};${VALID.email};`)).length, 1, `one row of ${naam}, its accents intact: ${csv.text}`);

          // The registration's page.
          await clickThrough(page, javaScript, `main table a[href="/beheer/registration/${id}"]`);
          assert.equal(where(page).path, `/beheer/registration/${id}`);
          assert.equal(await heading(page), 'Aanmelden: inzending');
          const registration = await details(page);
          assert.equal(registration.Naam, naam);
          assert.equal(registration['E-mailadres'], VALID.email);
          assert.equal(registration.Gebruikersnaam, VALID.gebruikersnaam);
          assert.equal(registration.Interesses, 'Sport, Natuur');
          assert.equal(registration['Aantal personen'], '2');
          await assertAccessible(page, javaScript, 'a registration’s page');

          // Erased, after one more question.
          await clickThrough(page, javaScript, '::-p-aria(Verwijder deze inzending[role="link"])');
          assert.equal(where(page).path, `/beheer/registration/${id}/verwijderen`);
          assert.equal(await heading(page), 'Inzending verwijderen');
          assert.match(await page.$eval('main', (e) => e.textContent ?? ''), new RegExp(`de inzending van ${naam} \\(Aanmelden\\)`));
          assert.ok(await suite.local.storage.staff.listed('registrations', id), 'nothing erased yet');
          await assertAccessible(page, javaScript, 'the erase confirmation');
          await clickThrough(page, javaScript, '::-p-aria(Ja, verwijder deze inzending[role="button"])');
          assert.equal(where(page).path, '/beheer/registration');
          assert.equal(await heading(page), 'Aanmelden: inzendingen');
          assert.equal(await page.$(`a[href="/beheer/registration/${id}"]`), null, 'the list no longer links it');
          assert.equal(await suite.local.storage.staff.listed('registrations', id), undefined, 'the row is gone');

          // The contact message, marked answered.
          await clickThrough(page, javaScript, 'nav[aria-label="Beheer"] a[href="/beheer"]');
          assert.equal(where(page).path, '/beheer');
          await clickThrough(page, javaScript, 'main a[href="/beheer/contact"]');
          assert.equal(where(page).path, '/beheer/contact');
          assert.equal(await heading(page), 'Contact: inzendingen');
          await assertAccessible(page, javaScript, 'the list of contact messages');
          const [message, ...more] = await rowLinks(page, sender);
          assert.ok(message && more.length === 0, `one message of ${sender} in the list`);
          assert.equal((await rowCells(page, message)).at(-1), 'nee', 'not answered yet');
          await clickThrough(page, javaScript, `main table a[href="${message}"]`);
          assert.equal(where(page).path, message);
          assert.equal(await heading(page), 'Contact: inzending');
          const before = await details(page);
          assert.equal(before.Naam, sender);
          assert.equal(before.Bericht, CONTACT_VALID.bericht);
          assert.equal(before.Beantwoord, 'nee');
          await assertAccessible(page, javaScript, 'a contact message’s page');
          await clickThrough(page, javaScript, '::-p-aria(Markeer als beantwoord[role="button"])');
          assert.equal(where(page).path, message);
          assert.match((await details(page)).Beantwoord!, new RegExp(`^ja, door ${email.replace(/[.]/g, '\\.')} op \\d{2}-\\d{2}-\\d{4},? \\d{2}:\\d{2}$`));
          assert.equal(await page.$('::-p-aria(Markeer als beantwoord[role="button"])'), null, 'no button to mark it again');

          // The list of answered messages has it; of the unanswered, not.
          await clickThrough(page, javaScript, '::-p-aria(Terug naar de lijst[role="link"])');
          assert.equal(where(page).path, '/beheer/contact');
          await page.select('#beantwoord', 'nee');
          await show(page, javaScript);
          assert.deepEqual(await rowLinks(page, sender), [], 'not among the unanswered');
          await page.select('#beantwoord', 'ja');
          await show(page, javaScript);
          assert.equal(where(page).params.get('beantwoord'), 'ja');
          assert.deepEqual(await rowLinks(page, sender), [message], 'among the answered');
          assert.equal((await rowCells(page, message)).at(-1), 'ja');

          // The audit log has what this account did.
          await clickThrough(page, javaScript, 'nav[aria-label="Beheer"] a[href="/beheer/logboek"]');
          assert.equal(where(page).path, '/beheer/logboek');
          assert.equal(await heading(page), 'Logboek');
          const log = (await page.$$eval('main tbody tr', (rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent ?? '')))) as string[][];
          const mine = log.filter((cells) => cells[1] === email).map((cells) => cells[2]);
          for (const action of ['login', 'list', 'export', 'detail', 'erase', 'answered']) assert.ok(mine.includes(action), `the log has "${action}" by ${email}: ${mine.join(', ')}`);
          assert.ok(
            log.some((cells) => cells[1] === email && cells[2] === 'erase' && cells[3]!.includes(id)),
            'the erasure names the registration by id',
          );
          assert.ok(!log.some((cells) => cells.some((cell) => cell.includes(naam) || cell.includes(search))), 'the log holds no name or search term');
          await assertAccessible(page, javaScript, 'the audit log');

          // Logged out: beheer asks for the login again.
          await clickThrough(page, javaScript, '::-p-aria(Uitloggen[role="button"])');
          assert.equal(where(page).path, '/beheer/inloggen');
          assert.equal(await heading(page), 'Inloggen bij beheer');
          await page.goto(`${suite.app.url}/beheer`, { waitUntil: 'load' });
          assert.equal(where(page).path, '/beheer/inloggen');
          assert.equal(where(page).params.get('terug'), '/beheer');
          assert.equal(await heading(page), 'Inloggen bij beheer');
        });
        assert.deepEqual(errors, [], 'no console errors');
      });
    });
  }
});

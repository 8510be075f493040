/**
 * The contact form in Chromium (docs/forms.md §9), on the form layer like the registration form:
 * with JavaScript on, each rule's message inline on blur, an invalid submit answered in place with
 * no request, a server-only 422 shown inline, a valid message posted with the data marker and
 * continued as a router navigation to the thank-you page, and a message typed before hydration
 * kept, judged and posted, on a first visit and on a 422 page that showed one (docs/forms.md §5);
 * with JavaScript off, the 422 page with every value kept, and the 303 to the thank-you page.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HTTPRequest, Page } from 'puppeteer-core';
import { SUBMISSION_FIELD } from '../../protocol/forms.js';
import { waitFor } from '../helpers/app.js';
import { browserSuite, needsServer, withPage } from '../helpers/browser-suite.js';
import { hydrateIsland } from './kit.js';
import { CONTACT_RULE_CASES, CONTACT_VALID, fill, fillForm, visibleFieldErrors } from '../helpers/form.js';
import { contactMessages } from '../../src/forms/contact.js';

const suite = browserSuite();

const EVERY_ERROR = { naam: 'Dit veld is verplicht', email: 'Dit veld is verplicht', onderwerp: 'Dit veld is verplicht', bericht: 'Dit veld is verplicht' };
const isMarked = (r: HTTPRequest) => r.method() === 'POST' && r.headers()['x-eiland-data'] === '1';
const HYDRATED = '[data-island="ContactForm"][data-hydrated="true"]';
/** What the message field holds: its text and its selection (the caret). */
const messageOf = (page: Page) => page.$eval('#bericht', (e) => [(e as HTMLTextAreaElement).value, (e as HTMLTextAreaElement).selectionStart, (e as HTMLTextAreaElement).selectionEnd]);

/**
 * Turns request interception on and holds the island's chunk, so what a test types comes before
 * hydration, until `release()` lets it load. Every other request goes on, the marked posts' bodies
 * kept in `marked`. Held on every page: Chromium serves a chunk a page has loaded to the next page
 * from its memory cache, past the interception.
 */
async function holdChunk(page: Page) {
  await page.setRequestInterception(true);
  let holding = true;
  const held: HTTPRequest[] = [];
  const marked: string[] = [];
  page.on('request', (r) => {
    if (isMarked(r)) marked.push(String(r.postData()));
    if (holding && /\/ContactForm-[A-Z0-9]+\.js$/.test(r.url())) held.push(r);
    else void r.continue();
  });
  return {
    marked,
    /** Called before the page is left: its request stays held, and `release()` waits for the next page's. */
    nextPage(): void {
      held.length = 0;
    },
    /** Waits until the chunk has been asked for, then lets it load. */
    async release(): Promise<void> {
      await waitFor(() => held.length > 0);
      holding = false;
      for (const r of held.splice(0)) await r.continue();
    },
  };
}

async function open(page: Page, javaScript: boolean): Promise<void> {
  await page.goto(`${suite.app.url}/contact`, { waitUntil: 'load' });
  if (javaScript) await hydrateIsland(page, 'ContactForm');
}

/** Fills the form with `CONTACT_VALID`, then the given changes (typing; the subject chosen). */
function fillMessage(page: Page, changes: Record<string, string> = {}): Promise<void> {
  return fillForm(page, { ...CONTACT_VALID, ...changes });
}

/** The submit button, by role and name (an element handle: locators wait with scripts in the page). */
async function submit(page: Page) {
  return (await page.$('::-p-aria(Versturen[role="button"])'))!;
}

describe('the contact form in Chromium with JavaScript on', () => {
  // Typed text, one case per rule (the longest are left to the parity test: typing 2000 characters is slow).
  const textCases = CONTACT_RULE_CASES.filter(([field, value]) => field !== 'onderwerp' && typeof value === 'string' && value.length <= 80);

  it(`shows each rule's message inline on blur after a change (${textCases.length} cases), the subject's too`, () =>
    withPage(suite.chromium, {}, async ({ page, errors }) => {
      await open(page, true);
      for (const [field, value, message] of textCases) {
        await fill(page, field, value as string);
        await page.keyboard.press('Tab');
        assert.equal((await visibleFieldErrors(page))[field], message ?? undefined, `${field} = ${JSON.stringify(value)}`);
      }
      await page.focus('#onderwerp');
      await page.select('#onderwerp', 'klacht');
      await page.select('#onderwerp', '');
      await page.keyboard.press('Tab');
      assert.equal((await visibleFieldErrors(page)).onderwerp, 'Dit veld is verplicht');
      assert.equal(await page.$eval('#onderwerp', (e) => e.getAttribute('aria-invalid')), 'true');
      assert.deepEqual(errors, []);
    }));

  it('an invalid submit shows every message and the summary, focuses it, and sends no request', () =>
    withPage(suite.chromium, {}, async ({ page, errors }) => {
      await open(page, true);
      const requests: string[] = [];
      page.on('request', (r) => requests.push(`${r.method()} ${r.url()}`));
      await (await submit(page)).click();
      await page.waitForFunction('document.activeElement?.id === "foutoverzicht"', { timeout: 3000 });
      assert.deepEqual(await visibleFieldErrors(page), EVERY_ERROR);
      assert.deepEqual(
        await page.$$eval('#foutoverzicht a', (links) => links.map((a) => `${a.getAttribute('href')} ${a.textContent}`)),
        ['#naam Dit veld is verplicht', '#email Dit veld is verplicht', '#onderwerp Dit veld is verplicht', '#bericht Dit veld is verplicht'],
      );
      assert.equal(await page.title(), 'Fout: Contact · Eiland');
      // A summary link moves focus to its field: the textarea.
      await page.click('#foutoverzicht a[href="#bericht"]');
      await page.waitForFunction('document.activeElement?.id === "bericht"', { timeout: 3000 });

      // Filled in but one rule broken: still in place, still no request.
      await fillMessage(page, { bericht: 'Te kort.' });
      await (await submit(page)).click();
      await page.waitForFunction('document.activeElement?.id === "foutoverzicht"', { timeout: 3000 });
      assert.deepEqual(await visibleFieldErrors(page), { bericht: 'at least 10 characters' });
      assert.equal(await page.$eval('#bericht-fout', (e) => e.getAttribute('lang')), 'en');
      assert.deepEqual(requests, []);
      assert.deepEqual(errors, []);
    }));

  it('posts a valid message with the data marker and continues to the thank-you page as a router navigation', () =>
    withPage(suite.chromium, {}, async ({ page, errors }) => {
      const marked: string[] = [];
      page.on('request', (r) => isMarked(r) && marked.push(String(r.postData())));
      await open(page, true);
      await fillMessage(page);
      await page.evaluate('window.zelfdeDocument = true');
      await (await submit(page)).click();
      await page.waitForFunction('document.querySelector("h1")?.textContent === "Bedankt voor je bericht"', { timeout: 5000 });
      assert.equal(new URL(page.url()).pathname, '/contact/bedankt');
      assert.equal(await page.evaluate('window.zelfdeDocument'), true, 'no document load');
      assert.equal(await page.title(), 'Bedankt voor je bericht · Eiland');
      assert.equal(marked.length, 1);
      assert.match(marked[0]!, /onderwerp=vraag/);
      assert.doesNotMatch(String(await page.$eval('main', (e) => e.textContent)), /Anna|voorbeeld\.nl|rondleiding/);
      assert.deepEqual(errors, []);
    }));

  it('shows a server-only 422 (a subject outside the list) inline', () =>
    withPage(suite.chromium, {}, async ({ page }) => {
      await page.setRequestInterception(true);
      page.on('request', (r) => {
        if (isMarked(r)) void r.continue({ postData: String(r.postData()).replace('onderwerp=vraag', 'onderwerp=spam') });
        else void r.continue();
      });
      await open(page, true);
      await fillMessage(page);
      await (await submit(page)).click();
      await page.waitForFunction('document.activeElement?.id === "foutoverzicht"', { timeout: 3000 });
      assert.deepEqual(await visibleFieldErrors(page), { onderwerp: 'Invoer is niet geldig' });
      assert.equal(new URL(page.url()).pathname, '/contact');
      assert.equal(await page.title(), 'Fout: Contact · Eiland');
    }));

  it('keeps a message typed before hydration on a first visit and judges it when focus leaves it', () =>
    withPage(suite.chromium, {}, async ({ page, errors }) => {
      const chunk = await holdChunk(page);
      await page.goto(`${suite.app.url}/contact`);
      // Focus is an interaction: hydration starts, and waits for the held chunk.
      await page.type('#bericht', 'Kort.');
      const typed = await messageOf(page);
      assert.deepEqual(typed, ['Kort.', 5, 5]);
      assert.equal(await page.$(HYDRATED), null, 'not hydrated yet');
      await chunk.release();
      await page.waitForSelector(HYDRATED, { timeout: 5000 });
      assert.deepEqual(await messageOf(page), typed);
      await page.keyboard.press('Tab');
      await page.waitForFunction(`document.querySelector('#bericht-fout')?.textContent === 'at least 10 characters'`, { timeout: 3000 });
      assert.deepEqual(errors, []);
    }));

  it('keeps a message typed before hydration of a 422 page that showed one, judges it and posts it', () =>
    withPage(suite.chromium, {}, async ({ page, errors }) => {
      const chunk = await holdChunk(page);
      await page.goto(`${suite.app.url}/contact`);
      await fillMessage(page, { bericht: 'Te kort.' });
      // Posted natively (past the island), as a browser without JavaScript posts it: the 422 page
      // shows the message again with the server's message, and its island waits for the chunk.
      chunk.nextPage();
      const post = 'window.vorigePagina = true; HTMLFormElement.prototype.submit.call(document.querySelector("form"))';
      const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.evaluate(post)]);
      assert.equal(response.status(), 422);
      // The new page, waited for by its content: the router saving the scroll position is a
      // same-document navigation that may end a wait for navigation first.
      await page.waitForFunction(`window.vorigePagina === undefined && document.querySelector('#bericht-fout') !== null`, { timeout: 5000 });
      assert.deepEqual(await visibleFieldErrors(page), { bericht: 'at least 10 characters' });

      // Typed at the end, then the caret moved back into the text: all of it before hydration.
      await page.focus('#bericht');
      await page.keyboard.press('End');
      await page.keyboard.type(' Nu wel lang genoeg.');
      await page.keyboard.press('ArrowLeft');
      const typed = await messageOf(page);
      assert.deepEqual(typed, ['Te kort. Nu wel lang genoeg.', 27, 27]);
      assert.equal(await page.$(HYDRATED), null, 'not hydrated yet');
      await chunk.release();
      await page.waitForSelector(HYDRATED, { timeout: 5000 });
      assert.deepEqual(await messageOf(page), typed, 'the text and the caret as typed, not the text the page showed');

      // A change like any other: judged when focus leaves the field, then posted as it stands.
      await page.keyboard.press('Tab');
      await page.waitForFunction(`document.querySelector('#bericht-fout') === null`, { timeout: 3000 });
      assert.deepEqual(await visibleFieldErrors(page), {});
      await (await submit(page)).click();
      await page.waitForFunction('document.querySelector("h1")?.textContent === "Bedankt voor je bericht"', { timeout: 5000 });
      assert.equal(chunk.marked.length, 1);
      assert.equal(new URLSearchParams(chunk.marked[0]).get('bericht'), 'Te kort. Nu wel lang genoeg.');
      assert.deepEqual(errors.filter((e) => !/status of 422/.test(e)), []);
    }));
});

describe('the contact form in Chromium with JavaScript off', () => {
  it('styles the select and the textarea like the text inputs, the invalid border too (docs/forms.md §4)', () =>
    withPage(suite.chromium, { javaScript: false }, async ({ page }) => {
      await page.goto(`${suite.app.url}/contact`, { waitUntil: 'load' });
      await (await submit(page)).click();
      await page.waitForSelector('#foutoverzicht');
      const looks = await page.$$eval('#naam, #onderwerp, #bericht', (controls) =>
        controls.map((control) => {
          const style = getComputedStyle(control);
          return [style.borderTopWidth, style.borderTopColor, style.borderRadius, style.paddingLeft, style.fontFamily, style.fontSize, style.display].join(' ');
        }),
      );
      assert.equal(looks.length, 3);
      assert.equal(looks[1], looks[0], 'select');
      assert.equal(looks[2], looks[0], 'textarea');
    }));

  it('an empty submit is answered 422 with every message and the summary', () =>
    withPage(suite.chromium, { javaScript: false }, async ({ page }) => {
      await open(page, false);
      const [res] = await Promise.all([page.waitForNavigation(), (await submit(page)).click()]);
      assert.equal(res?.status(), 422);
      assert.equal(await page.title(), 'Fout: Contact · Eiland');
      assert.deepEqual(await visibleFieldErrors(page), EVERY_ERROR);
      assert.ok(await page.$('::-p-aria(Controleer de volgende velden[role="heading"])'), 'the summary heading');
      await page.click('#foutoverzicht a[href="#onderwerp"]');
      await page.waitForFunction('location.hash === "#onderwerp"');
    }));

  it('a failed post keeps every value: the text, the chosen subject and the message', () =>
    withPage(suite.chromium, { javaScript: false }, async ({ page }) => {
      await open(page, false);
      await fillMessage(page, { email: 'anna@', onderwerp: 'compliment', bericht: 'Mooie site!\nTot ziens.' });
      const [res] = await Promise.all([page.waitForNavigation(), (await submit(page)).click()]);
      assert.equal(res?.status(), 422);
      assert.deepEqual(await visibleFieldErrors(page), { email: 'Dit is geen geldig email adress' });
      assert.deepEqual(
        await page.$$eval('#naam, #email, #onderwerp, #bericht', (els) => els.map((e) => (e as HTMLInputElement).value)),
        ['Anna de Vries', 'anna@', 'compliment', 'Mooie site!\nTot ziens.'],
      );
    }));

  it('a valid message is answered 303 to the thank-you page, which shows nothing of it', () =>
    withPage(suite.chromium, { javaScript: false }, async ({ page }) => {
      const answers: string[] = [];
      page.on('response', (r) => r.request().method() === 'POST' && answers.push(`${r.status()} ${r.headers()['location']}`));
      await open(page, false);
      await fillMessage(page);
      await Promise.all([page.waitForNavigation(), (await submit(page)).click()]);
      assert.deepEqual(answers, ['303 /contact/bedankt']);
      assert.equal(new URL(page.url()).pathname, '/contact/bedankt');
      assert.equal(await page.$eval('h1', (e) => e.textContent), 'Bedankt voor je bericht');
      assert.doesNotMatch(String(await page.$eval('main', (e) => e.textContent)), /Anna|voorbeeld\.nl|rondleiding/);
    }));

  it('stores what was sent and logs its subject only', { skip: needsServer('its storage and logs') }, () =>
    withPage(suite.chromium, { javaScript: false }, async ({ page }) => {
      await open(page, false);
      const key = await page.$eval(`input[name="${SUBMISSION_FIELD}"]`, (e) => (e as HTMLInputElement).value);
      await fillMessage(page, { naam: 'Joost Smit', bericht: 'Graag meer over de excursie.' });
      await Promise.all([page.waitForNavigation(), (await submit(page)).click()]);
      const again = await contactMessages(suite.local.storage).save(key, { naam: 'x', email: 'x@x.nl', onderwerp: 'vraag', bericht: 'niet opgeslagen' });
      assert.equal(again.created, false, 'a message was stored under the form’s submission key');
      const stored = await contactMessages(suite.local.storage).find(again.id);
      assert.deepEqual([stored?.naam, stored?.bericht], ['Joost Smit', 'Graag meer over de excursie.']);
      const line = suite.local.logs().findLast((l) => l.event === 'contact_received');
      assert.deepEqual([line?.subject, line?.repeated], ['vraag', false]);
      assert.ok(!suite.local.rawLogs().some((l) => /Joost Smit|excursie/.test(l)), 'nothing personal in the log');
    }));
});

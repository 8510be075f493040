/**
 * The registration island with JavaScript on, in each browser of `E2E_BROWSERS` (docs/forms.md §5,
 * docs/qa-kit.md §7): each rule's message
 * inline on blur, the summary on submit, hydration on the first interaction (a submit before it
 * held and replayed, text typed before it kept and judged), hydration of a server-rendered 422 and
 * of hostile props, and its post — a router navigation to the confirmation page,
 * a server-only 422 shown inline, a native submit when the network fails, never two at once.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HTTPRequest, Page } from 'puppeteer-core';
import { waitFor } from '../helpers/app.js';
import { browserSuite, countReactStarts, eachBrowser, pageSettled, reactStarts, withPage } from '../helpers/browser-suite.js';
import { EMPTY_SUBMIT_ERRORS, fill, fillForm, RULE_CASES, SANNE, visibleFieldErrors } from '../helpers/form.js';
import { hydrateIsland, manifestOf } from './kit.js';

const HYDRATED = '[data-island="RegistrationForm"][data-hydrated="true"]';
const PENDING = '[data-island="RegistrationForm"][data-hydrated="pending"]';

async function openForm(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/aanmelden`);
  await hydrateIsland(page, 'RegistrationForm');
}

const errorsOf = visibleFieldErrors;
/**
 * A request's body, asked for when the request starts: `postData()` where the browser has it at
 * hand, else fetched; Firefox over WebDriver BiDi lacks `postData()` (it throws; docs/qa-kit.md §7).
 */
async function bodyOf(r: HTTPRequest): Promise<string | undefined> {
  try {
    return r.postData() ?? (await r.fetchPostData());
  } catch {
    return r.fetchPostData();
  }
}
const isMarked = (r: HTTPRequest) => r.method() === 'POST' && r.headers()['x-eiland-data'] === '1';

eachBrowser((browser) => {
  const suite = browserSuite({}, browser);

  describe('the registration island with JavaScript on', () => {
    // Text fields, one case per rule; a number field cannot hold letters in a browser.
    const textCases = RULE_CASES.filter(([field, value]) => typeof value === 'string' && field !== 'interesses' && field !== 'akkoord' && !(field === 'personen' && !/^[\d.]*$/.test(value)));

    it(`shows each rule's message inline on blur after a change (${textCases.length} cases), not while typing`, () =>
      withPage(suite.browser, {}, async ({ page, errors }) => {
        await openForm(page, suite.app.url);
        /** What each field showed after its last blur: typing changes none of it. */
        const lastShown: Record<string, string | undefined> = {};
        for (const [field, value, message] of textCases) {
          await fill(page, field, value as string);
          // A field's first change shows nothing until focus leaves it; a later one keeps what its last blur showed.
          assert.equal((await errorsOf(page))[field], lastShown[field], `${field}: no new message before blur`);
          await page.keyboard.press('Tab');
          const shown = await errorsOf(page);
          assert.equal(shown[field], message ?? undefined, `${field} = ${JSON.stringify(value)}`);
          lastShown[field] = shown[field];
          // Marked invalid and described by its message exactly when it has one.
          assert.equal(await page.$eval(`#${field}`, (e) => e.getAttribute('aria-invalid')), message === null ? null : 'true', `${field} = ${JSON.stringify(value)}: aria-invalid`);
          const describedBy = ((await page.$eval(`#${field}`, (e) => e.getAttribute('aria-describedby'))) ?? '').split(' ');
          assert.equal(describedBy.includes(`${field}-fout`), message !== null, `${field} = ${JSON.stringify(value)}: aria-describedby ${describedBy.join(' ')}`);
        }
        assert.deepEqual(errors, []);
      }));

    it('judges the checkbox group and the consent box when focus leaves them', () =>
      withPage(suite.browser, {}, async ({ page }) => {
        await openForm(page, suite.app.url);
        for (const v of ['techniek', 'cultuur', 'sport', 'natuur']) await page.click(`#interesses-${v}`);
        await page.focus('#personen');
        assert.equal((await errorsOf(page)).interesses, 'must contain at most 3 value(s)');
        for (const v of ['techniek', 'cultuur', 'sport', 'natuur']) await page.click(`#interesses-${v}`);
        await page.focus('#personen');
        assert.equal((await errorsOf(page)).interesses, 'must contain at least 1 value(s)');
        await page.click('#akkoord');
        await page.click('#akkoord');
        await page.focus('#naam');
        assert.equal((await errorsOf(page)).akkoord, 'Dit veld is verplicht');
      }));

    it('on an empty submit shows every message and the summary, focuses the summary, posts nothing', () =>
      withPage(suite.browser, {}, async ({ page, errors }) => {
        const posts: string[] = [];
        page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()));
        await openForm(page, suite.app.url);
        await page.click('button[type="submit"]');
        await page.waitForFunction('document.activeElement?.id === "foutoverzicht"', { timeout: 3000 });
        assert.deepEqual(await errorsOf(page), EMPTY_SUBMIT_ERRORS);
        assert.deepEqual(
          await page.$$eval('#foutoverzicht a', (links) => links.map((a) => `${a.getAttribute('href')} ${a.textContent}`)),
          [
            '#naam Dit veld is verplicht',
            '#email Dit veld is verplicht',
            '#gebruikersnaam Dit veld is verplicht',
            '#landcode Dit veld is verplicht',
            '#interesses-techniek must contain at least 1 value(s)',
            '#personen Dit veld is verplicht',
            '#akkoord Dit veld is verplicht',
          ],
        );
        assert.equal(await page.title(), 'Fout: Aanmelden · Eiland');
        assert.deepEqual(posts, []);
        assert.deepEqual(errors, []);
      }));

    it('hydrates a server-rendered 422 page (errors and values in its props) without warnings', () =>
      withPage(suite.browser, {}, async ({ page, errors }) => {
        await openForm(page, suite.app.url);
        await fill(page, 'gebruikersnaam', 'Anna');
        await Promise.all([page.waitForNavigation(), page.evaluate('HTMLFormElement.prototype.submit.call(document.querySelector("form"))')]);
        await hydrateIsland(page, 'RegistrationForm');
        assert.equal(await page.title(), 'Fout: Aanmelden · Eiland');
        assert.equal((await errorsOf(page)).gebruikersnaam, 'the value must be lowercase');
        // Chromium reports every 4xx document as a failed resource; nothing else may appear.
        assert.deepEqual(errors.filter((e) => !/status of 422/.test(e)), []);
        await fill(page, 'gebruikersnaam', 'anna');
        await page.keyboard.press('Tab');
        assert.equal((await errorsOf(page)).gebruikersnaam, undefined);
      }));

    it('keeps the server\'s message on a number it could not show back until that field is edited', () =>
      withPage(suite.browser, {}, async ({ page, errors }) => {
        await openForm(page, suite.app.url);
        await fillForm(page, SANNE);
        // Letters a number input cannot hold, posted natively (past the island) as a browser
        // without JavaScript could send them.
        await page.evaluate(`Object.assign(document.querySelector('#personen'), { type: 'text', value: 'abc' })`);
        const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.evaluate('HTMLFormElement.prototype.submit.call(document.querySelector("form"))')]);
        assert.equal(response.status(), 422);
        // The page again, waited for by its content: the router saving the scroll position is a
        // same-document navigation that may end a wait for navigation first.
        await page.waitForSelector('#personen-fout', { timeout: 5000 });
        assert.deepEqual(await errorsOf(page), { personen: 'Invoer is niet geldig' }, 'the server\'s message');
        assert.equal(await page.$eval('#personen', (e) => (e as HTMLInputElement).value), '', 'abc is shown as nothing');

        // The first interaction hydrates; the next, elsewhere, is judged after the island started.
        await hydrateIsland(page, 'RegistrationForm');
        await fill(page, 'gebruikersnaam', 'Sanne');
        await page.keyboard.press('Tab');
        await page.waitForSelector('#gebruikersnaam-fout', { timeout: 3000 });
        assert.deepEqual(await errorsOf(page), { gebruikersnaam: 'the value must be lowercase', personen: 'Invoer is niet geldig' });
        assert.deepEqual(await page.$$eval('#foutoverzicht a', (links) => links.map((a) => `${a.getAttribute('href')} ${a.textContent}`)), ['#personen Invoer is niet geldig']);

        // An edit of the field itself is judged as any change.
        await fill(page, 'personen', '');
        await page.keyboard.press('Tab');
        await page.waitForFunction(`document.querySelector('#personen-fout')?.textContent === 'Dit veld is verplicht'`, { timeout: 3000 });
        assert.deepEqual(errors.filter((e) => !/status of 422/.test(e)), []);
      }));

    it('hydrates props holding </script><!-- and U+2028 without a warning, the value intact', () =>
      withPage(suite.browser, {}, async ({ page, errors }) => {
        const hostile = '</script><!--<script>window.geraakt=1</script>\u2028\u2029 & >';
        await openForm(page, suite.app.url);
        await page.evaluate(`document.querySelector('#naam').value = ${JSON.stringify(hostile)}`);
        await Promise.all([page.waitForNavigation(), page.evaluate('HTMLFormElement.prototype.submit.call(document.querySelector("form"))')]);
        await hydrateIsland(page, 'RegistrationForm');
        assert.equal(await page.$eval('#naam', (e) => (e as HTMLInputElement).value), hostile);
        assert.equal(await page.evaluate('window.geraakt'), undefined);
        assert.deepEqual(errors.filter((e) => !/status of 422/.test(e)), []);
      }));

    it('hydrates on the first interaction, runs no React before it, and finds its modules fetched', () =>
      withPage(suite.browser, {}, async ({ page, errors }) => {
        const fetched: string[] = [];
        const loaded: string[] = [];
        page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
        page.on('requestfinished', (r) => loaded.push(new URL(r.url()).pathname));
        await countReactStarts(page);
        await page.goto(`${suite.app.url}/aanmelden`);
        await page.waitForSelector(PENDING, { timeout: 5000 });
        const manifest = await manifestOf(suite.app.url);
        await waitFor(() => [manifest.islands.RegistrationForm!.file, ...manifest.runtime.imports].every((f) => loaded.includes(f)));
        // A hydration without an interaction would be work the page does once its modules are
        // there, before it is idle.
        await pageSettled(page);
        assert.equal(await page.$(HYDRATED), null, 'no interaction: not hydrated');
        assert.equal(await reactStarts(page), 0, 'no interaction: React not run');
        const before = fetched.length;
        await page.hover('#naam');
        await page.waitForSelector(HYDRATED, { timeout: 5000 });
        assert.equal(await reactStarts(page), 1);
        assert.deepEqual(fetched.slice(before), [], 'nothing more to fetch');
        assert.deepEqual(errors, []);
      }));

    it('holds a submit made before hydration and replays it through the island', () =>
      withPage(suite.browser, {}, async ({ page, errors }) => {
        const posts: string[] = [];
        await page.setRequestInterception(true);
        let held: HTTPRequest | undefined;
        page.on('request', (r) => {
          if (r.method() === 'POST') posts.push(r.url());
          if (/\/RegistrationForm-[A-Z0-9]+\.js$/.test(r.url())) held = r;
          else void r.continue();
        });
        await page.goto(`${suite.app.url}/aanmelden`);
        await page.waitForSelector(PENDING, { timeout: 5000 });
        await waitFor(() => held !== undefined);
        await page.evaluate('window.zelfdeDocument = true');
        await page.click('button[type="submit"]');
        assert.equal(await page.$(HYDRATED), null, 'not hydrated yet');
        await held!.continue();
        await page.waitForFunction('document.activeElement?.id === "foutoverzicht"', { timeout: 5000 });
        assert.equal(await page.evaluate('window.zelfdeDocument'), true, 'no native submit');
        assert.deepEqual(await errorsOf(page), EMPTY_SUBMIT_ERRORS);
        assert.deepEqual(posts, []);
        assert.deepEqual(errors, []);
      }));

    it('keeps text typed before hydration and judges it: a field left at once, the focused one when left', () =>
      withPage(suite.browser, {}, async ({ page }) => {
        await page.setRequestInterception(true);
        let held: HTTPRequest | undefined;
        page.on('request', (r) => {
          if (/\/RegistrationForm-[A-Z0-9]+\.js$/.test(r.url())) held = r;
          else void r.continue();
        });
        await page.goto(`${suite.app.url}/aanmelden`);
        await page.type('#naam', 'Vroege Vogel');
        await page.type('#gebruikersnaam', 'Vroeg');
        await page.type('#landcode', 'nl');
        await waitFor(() => held !== undefined);
        assert.equal(await page.$(HYDRATED), null, 'not hydrated yet');
        await held!.continue();
        await page.waitForSelector(HYDRATED, { timeout: 5000 });
        assert.equal(await page.$eval('#naam', (e) => (e as HTMLInputElement).value), 'Vroege Vogel');
        await page.waitForFunction(`document.querySelector('#gebruikersnaam-fout') !== null`, { timeout: 3000 });
        assert.deepEqual(await errorsOf(page), { gebruikersnaam: 'the value must be lowercase' });
        await page.keyboard.press('Tab');
        assert.deepEqual(await errorsOf(page), { gebruikersnaam: 'the value must be lowercase', landcode: 'the value must be upper case' });
      }));

    it('posts a valid form with the data marker and continues to the confirmation page as a router navigation', () =>
      withPage(suite.browser, {}, async ({ page, errors }) => {
        const marked: Array<Promise<string | undefined>> = [];
        page.on('request', (r) => isMarked(r) && marked.push(bodyOf(r)));
        await openForm(page, suite.app.url);
        await fillForm(page, SANNE);
        await page.evaluate('window.zelfdeDocument = true');
        await page.click('button[type="submit"]');
        // docs/forms.md §5: the 303 continues as a router navigation, without a document load.
        await page.waitForFunction('document.querySelector("h1")?.textContent === "Bedankt voor je aanmelding, Sanne Bakker"', { timeout: 5000 });
        assert.match(page.url(), /\/aanmeldingen\/[0-9a-f-]{36}$/);
        assert.equal(await page.evaluate('window.zelfdeDocument'), true);
        assert.equal(await page.title(), 'Bedankt voor je aanmelding · Eiland');
        assert.equal(marked.length, 1);
        assert.match(String(await marked[0]), /naam=Sanne\+Bakker/);
        assert.deepEqual(errors, []);
      }));

    it('shows a server-only 422 (a tampered post) inline', () =>
      withPage(suite.browser, {}, async ({ page }) => {
        await page.setRequestInterception(true);
        page.on('request', (r) => {
          // The same length: Firefox keeps the original Content-Length of an overridden body.
          if (isMarked(r)) void bodyOf(r).then((body) => r.continue({ postData: String(body).replace('landcode=NL', 'landcode=nl') }));
          else void r.continue();
        });
        await openForm(page, suite.app.url);
        await fillForm(page, SANNE);
        await page.click('button[type="submit"]');
        await page.waitForFunction('document.activeElement?.id === "foutoverzicht"', { timeout: 3000 });
        assert.deepEqual(await errorsOf(page), { landcode: 'the value must be upper case' });
        assert.match(page.url(), /\/aanmelden$/);
      }));

    it('falls back to a native submit when the post fails on the network', () =>
      withPage(suite.browser, {}, async ({ page }) => {
        const posts: string[] = [];
        await page.setRequestInterception(true);
        page.on('request', (r) => {
          if (r.method() === 'POST') posts.push(isMarked(r) ? 'marked' : 'native');
          if (isMarked(r)) void r.abort('failed');
          else void r.continue();
        });
        const answers: string[] = [];
        page.on('response', (r) => r.request().method() === 'POST' && answers.push(`${r.status()} ${r.headers()['location'] ?? ''}`));
        await openForm(page, suite.app.url);
        await fillForm(page, SANNE);
        await page.click('button[type="submit"]');
        // The native post and its 303 may reach puppeteer as more than one navigation: wait for
        // where it ends, not for the first navigation event.
        await page.waitForFunction('/^\\/aanmeldingen\\/[0-9a-f-]{36}$/.test(location.pathname)', { timeout: 10_000 }).catch(() => {
          throw new Error(`no confirmation page: the posts were answered ${answers.join(', ')}; now at ${page.url()}`);
        });
        assert.deepEqual(posts, ['marked', 'native']);
      }));

    it('sends no second post while one is pending', () =>
      withPage(suite.browser, {}, async ({ page }) => {
        // The posts the page starts, counted where it starts them.
        await page.evaluateOnNewDocument(`(() => {
          const send = window.fetch;
          window.postsStarted = 0;
          window.fetch = function fetch(input, init) {
            if (String(init?.method).toUpperCase() === 'POST') window.postsStarted += 1;
            return send.apply(this, arguments);
          };
        })()`);
        await page.setRequestInterception(true);
        const marked: HTTPRequest[] = [];
        page.on('request', (r) => {
          if (isMarked(r)) marked.push(r);
          else void r.continue();
        });
        await openForm(page, suite.app.url);
        await fillForm(page, SANNE);
        for (let i = 0; i < 3; i++) await page.click('button[type="submit"]');
        // The clicks have been handled, and the island starts its post in the submit's handler: wait
        // until every post the page has started has reached the interception.
        const started = Number(await page.evaluate('window.postsStarted'));
        await waitFor(() => marked.length >= Math.max(started, 1));
        assert.equal(marked.length, 1);
        await marked[0]!.continue();
        await page.waitForFunction('location.pathname.startsWith("/aanmeldingen/")', { timeout: 5000 });
      }));
  });
});

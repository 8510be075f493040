/**
 * The suites' `fillForm` (docs/qa-kit.md §4) on the test form of every control, in each browser of
 * `E2E_BROWSERS`: a radio group's option, a date and a time filled as asked whatever the browser's
 * locale, and posted as asked with JavaScript off (the browser's own post) and on (the island's,
 * after its validation), where a picked field counts as changed and is judged when focus leaves it.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { productionAssets } from '../../src/assets/source.js';
import { islandRoutes, receivedPosts, testBuild } from '../fixtures/island-routes.js';
import { browserSuite, eachBrowser, needsServer, withPage } from '../helpers/browser-suite.js';
import { fillForm } from '../helpers/form.js';

let build: Awaited<ReturnType<typeof testBuild>> | undefined;
after(() => build?.remove());

/**
 * What the form is filled with: a leap day, an afternoon time (a 12-hour locale types it with
 * "PM"), the second of two options, and what the island's rules want besides.
 */
const ASKED = { telefoon: '+31 20 123 4567', datum: '2028-02-29', tijd: '21:45', wachtwoord: 'langgenoeg', soort: 'lang' };

const HYDRATED = '[data-island="Bedieningen"][data-hydrated="true"]';
const SUBMIT = 'button[type="submit"]';
const message = (name: string) => `(document.querySelector('#${name}-fout')?.textContent ?? null)`;
const RECEIVED = `document.querySelector('h1')?.textContent === 'Ontvangen'`;

/** The asked fields of the last post the server received. */
function lastPost(): Record<string, unknown> {
  const post = receivedPosts.at(-1) ?? {};
  return Object.fromEntries(Object.keys(ASKED).map((name) => [name, post[name]]));
}

eachBrowser((browser) => {
  const suite = browserSuite(async () => {
    build ??= await testBuild({ testIslands: true });
    return { assets: productionAssets(build.dir), extraRoutes: islandRoutes };
  }, browser);

  describe('fillForm: radio groups, dates and times (docs/qa-kit.md §4)', { skip: needsServer('a test-only island and what its server received') }, () => {
    it('with JavaScript off: the form posts the option, the date and the time asked', () =>
      withPage(suite.browser, { javaScript: false }, async ({ page }) => {
        await page.goto(`${suite.app.url}/proef/bedieningen`);
        await fillForm(page, ASKED);
        const before = receivedPosts.length;
        await Promise.all([page.waitForNavigation(), page.click(SUBMIT)]);
        assert.equal(await page.evaluate(RECEIVED), true, 'the page the post leads to');
        assert.equal(receivedPosts.length, before + 1);
        assert.deepEqual(lastPost(), ASKED);
      }));

    it('with JavaScript on: each picked field is judged when focus leaves it, and the island posts what was asked', () =>
      withPage(suite.browser, {}, async ({ page, errors }) => {
        await page.goto(`${suite.app.url}/proef/bedieningen`);
        await page.waitForSelector(HYDRATED, { timeout: 5000 });
        // An empty submit: every field shows its message.
        await page.click(SUBMIT);
        await page.waitForFunction(`${message('datum')} === 'Dit veld is verplicht' && ${message('tijd')} === 'Dit veld is verplicht'`, { timeout: 3000 });

        // Filled in form order: focus leaves the date for the time, and the time for the password.
        const before = receivedPosts.length;
        await fillForm(page, ASKED);
        await page.waitForFunction(`${message('datum')} === null && ${message('tijd')} === null`, { timeout: 3000 });
        assert.deepEqual(
          await page.$$eval('#datum, #tijd, input[name="soort"]:checked', (inputs) => inputs.map((input) => (input as HTMLInputElement).value)),
          [ASKED.datum, ASKED.tijd, ASKED.soort],
        );

        await page.click(SUBMIT);
        await page.waitForFunction(RECEIVED, { timeout: 5000 });
        assert.equal(receivedPosts.length, before + 1);
        assert.deepEqual(lastPost(), ASKED);
        assert.deepEqual(errors, []);
      }));

    it('refuses a date the input cannot hold and an option the group does not have, naming them', () =>
      withPage(suite.browser, { javaScript: false }, async ({ page }) => {
        await page.goto(`${suite.app.url}/proef/bedieningen`);
        await assert.rejects(fillForm(page, { datum: '2027-02-29' }), { message: 'The date input "datum" cannot hold "2027-02-29" (it holds "")' });
        await assert.rejects(fillForm(page, { tijd: '24:00' }), { message: 'The time input "tijd" cannot hold "24:00" (it holds "")' });
        await assert.rejects(fillForm(page, { soort: 'middel' }), { message: 'The page has no "soort" radio of value "middel"' });
      }));
  });
});

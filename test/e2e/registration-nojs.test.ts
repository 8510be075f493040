/**
 * The registration form with JavaScript off, in each browser of `E2E_BROWSERS` (docs/forms.md §4,
 * docs/qa-kit.md §7): an empty submit shows
 * every message in place with the summary, and a full registration lands on its confirmation
 * page, which survives a restart.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openSqlite } from '../../src/storage/index.js';
import { startApp } from '../helpers/app.js';
import { browserSuite, eachBrowser, needsServer, withPage } from '../helpers/browser-suite.js';
import { EMPTY_SUBMIT_ERRORS, fillForm, SANNE, visibleFieldErrors } from '../helpers/form.js';
import { tempStorage, TEST_MIGRATIONS } from '../helpers/temp-storage.js';

eachBrowser((browser) => {
  const suite = browserSuite({}, browser);

  describe('the registration form with JavaScript off', () => {
    it('an empty submit shows every message in place, with the summary above the heading', () =>
      withPage(suite.browser, { javaScript: false }, async ({ page }) => {
        await page.goto(`${suite.app.url}/aanmelden`);
        await Promise.all([page.waitForNavigation(), page.click('::-p-aria(Aanmelden[role="button"])')]);
        assert.equal(await page.title(), 'Fout: Aanmelden · Eiland');
        assert.deepEqual(await visibleFieldErrors(page), EMPTY_SUBMIT_ERRORS);
        assert.ok(await page.$('::-p-aria(Controleer de volgende velden[role="heading"])'), 'the summary heading');
        // A summary link takes the reader to the field (its href is the field's id).
        await page.click('#foutoverzicht a[href="#landcode"]');
        await page.waitForFunction('location.hash === "#landcode"');
      }));

    it('a full registration lands on the confirmation page, which survives a restart on the same database file', { skip: needsServer('a restart on its database file') }, async () => {
      const { storage, file, remove } = await tempStorage();
      let app = await startApp({ storage });
      try {
        await withPage(suite.browser, { javaScript: false }, async ({ page }) => {
          await page.goto(`${app.url}/aanmelden`);
          await fillForm(page, { ...SANNE, interesses: ['cultuur', 'natuur'], personen: '4' }, { typing: 'type' });
          const [response] = await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
          assert.equal(response?.status(), 200);
          const url = page.url();
          assert.match(url, /\/aanmeldingen\/[0-9a-f-]{36}$/);
          assert.equal(await page.$eval('h1', (e) => e.textContent), 'Bedankt voor je aanmelding, Sanne Bakker');
          assert.equal(await page.title(), 'Bedankt voor je aanmelding · Eiland');

          // Restart: a new app on the same file finds the registration again.
          await app.close();
          await storage.close();
          const reopened = await openSqlite(file, TEST_MIGRATIONS);
          app = await startApp({ storage: reopened });
          await page.goto(url.replace(/^http:\/\/127\.0\.0\.1:\d+/, app.url));
          assert.equal(await page.$eval('h1', (e) => e.textContent), 'Bedankt voor je aanmelding, Sanne Bakker');
          assert.deepEqual(await page.$$eval('dd', (els) => els.map((e) => e.textContent)), ['Sanne Bakker', 'Cultuur, Natuur', '4', 's***@voorbeeld.nl']);
          await reopened.close();
        });
      } finally {
        await app.close();
        await remove();
      }
    });
  });
});

/**
 * Erasing one's registration in Chromium (docs/pages.md §7), with JavaScript on and off: the
 * confirmation's button, the question asked once more, the page that says it is done, and the
 * secret address answering 404 afterwards.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserSuite, needsServer, withPage } from '../helpers/browser-suite.js';
import { postForm, VALID } from '../helpers/form.js';
import { registrations } from '../../src/forms/registration.js';

const suite = browserSuite();

describe('erasing one’s registration in Chromium (docs/pages.md §7)', { skip: needsServer('registrations stored by the test') }, () => {
  for (const javaScript of [true, false]) {
    it(`asks once more, erases, and the address then answers 404: JavaScript ${javaScript ? 'on' : 'off'}`, async () => {
      const stored = await postForm(suite.local, '/aanmelden', VALID);
      const confirmation = String(stored.headers.location);
      assert.match(confirmation, /^\/aanmeldingen\/[0-9a-f-]{36}$/);
      await withPage(suite.chromium, { javaScript }, async ({ page }) => {
        await page.goto(suite.app.url + confirmation);
        await Promise.all([page.waitForNavigation(), page.click('form[action$="/verwijderen"] button')]);
        assert.equal(await page.$eval('h1', (e) => e.textContent), 'Aanmelding verwijderen');
        assert.ok(await registrations(suite.local.storage).find(confirmation.split('/').pop()!), 'nothing erased yet');
        await Promise.all([page.waitForNavigation(), page.click('input[name="bevestigd"] ~ button')]);
        assert.equal(new URL(page.url()).pathname, '/aanmelding-verwijderd');
        assert.equal(await page.$eval('h1', (e) => e.textContent), 'Je aanmelding is verwijderd');
        const gone = await page.goto(suite.app.url + confirmation);
        assert.equal(gone?.status(), 404);
      });
      assert.equal(await registrations(suite.local.storage).find(confirmation.split('/').pop()!), undefined);
    });
  }
});

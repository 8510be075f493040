/**
 * The registration form in Firefox ESR over WebDriver BiDi, as part of `npm test`
 * (docs/qa-kit.md §7): with JavaScript off, a refused post shows every message and a full one
 * lands on its confirmation page (post, redirect, get); with JavaScript on, a message inline on
 * blur and the post continuing to the confirmation page; not one console message in any page.
 * The full suites run in Firefox under `npm run test:e2e` (`E2E_BROWSERS`); there this file skips.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserSuite, e2eBrowsers, withPage } from '../helpers/browser-suite.js';
import { EMPTY_SUBMIT_ERRORS, fill, fillForm, SANNE, visibleFieldErrors } from '../helpers/form.js';
import { hydrateIsland, openPage } from './kit.js';

const covered = e2eBrowsers().includes('firefox') && 'the full registration and router suites run in Firefox (E2E_BROWSERS)';

describe('the registration form in Firefox', { skip: covered }, () => {
  const suite = browserSuite({}, 'firefox');

  it('with JavaScript off: every message after an empty post, then the confirmation page after a full one', () =>
    withPage(suite.browser, { javaScript: false }, async ({ page, messages }) => {
      await page.goto(`${suite.app.url}/aanmelden`);
      assert.equal(await page.$('[data-hydrated="true"]'), null, 'nothing hydrates');
      const [refused] = await Promise.all([page.waitForNavigation(), page.click('::-p-aria(Aanmelden[role="button"])')]);
      assert.equal(refused?.status(), 422);
      assert.deepEqual(await visibleFieldErrors(page), EMPTY_SUBMIT_ERRORS);
      await fillForm(page, { ...SANNE, interesses: ['natuur'] }, { typing: 'type' });
      const [confirmed] = await Promise.all([page.waitForNavigation(), page.click('::-p-aria(Aanmelden[role="button"])')]);
      assert.equal(confirmed?.status(), 200);
      assert.match(page.url(), /\/aanmeldingen\/[0-9a-f-]{36}$/);
      assert.equal(await page.$eval('h1', (e) => e.textContent), 'Bedankt voor je aanmelding, Sanne Bakker');
      assert.deepEqual(messages, []);
    }));

  it('with JavaScript on: a message inline on blur, then the post continues to the confirmation page in the same document', () =>
    withPage(suite.browser, {}, async ({ page, messages }) => {
      await page.goto(`${suite.app.url}/aanmelden`);
      await hydrateIsland(page, 'RegistrationForm');
      await fill(page, 'naam', 'Sanne Bakker');
      await fill(page, 'email', 'sanne@voorbeeld.nl');
      await fill(page, 'gebruikersnaam', 'Anna');
      await page.keyboard.press('Tab');
      assert.deepEqual(await visibleFieldErrors(page), { gebruikersnaam: 'the value must be lowercase' });
      await fill(page, 'gebruikersnaam', 'sanne_b');
      // The click into the next field blurs this one: its message goes and the fields below move up.
      await fill(page, 'landcode', 'NL');
      assert.deepEqual(await visibleFieldErrors(page), {});
      assert.equal(await page.$eval('#landcode', (e) => (e as HTMLInputElement).value), 'NL');
      await page.click('#interesses-sport');
      await fill(page, 'personen', '2');
      await page.click('#akkoord');
      await page.evaluate('window.zelfdeDocument = true');
      await page.click('button[type="submit"]');
      await page.waitForFunction('document.querySelector("h1")?.textContent === "Bedankt voor je aanmelding, Sanne Bakker"', { timeout: 5000 });
      assert.match(page.url(), /\/aanmeldingen\/[0-9a-f-]{36}$/);
      assert.equal(await page.evaluate('window.zelfdeDocument'), true);
      assert.deepEqual(messages, []);
    }));

  it('refuses, naming what Firefox lacks, the emulations it cannot do', async () => {
    const launched = { browser: suite.browser.browser, name: 'firefox', presents: 'person', javaScript: true, close: async () => {} } as const;
    await assert.rejects(openPage(launched, undefined, { saveData: true }), /saveData — Firefox has no navigator\.connection/);
    await assert.rejects(openPage(launched, undefined, { slowNetwork: true }), /slowNetwork — .*only offline/);
    await assert.rejects(openPage(launched, undefined, { colorScheme: 'dark' }), /colorScheme — .*needs CDP/);
    await assert.rejects(openPage(launched, undefined, { javaScript: false }), /no emulation\.setScriptingEnabled; launch another with launchFirefox\(\{ javaScript: false \}\)/);
  });
});
